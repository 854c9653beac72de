/**
 * JSON schemas of custom resources that triton-ops writes and no @kubernetes-models package covers, vendored under
 * `schemas/` at the package root (their source, commit and licence: schemas/README.md and schemas/LICENSE). They are
 * validated with kubernetes-models' own machinery: the Ajv that @kubernetes-models/validate depends on, with that
 * package's formats, and the embedded Kubernetes types (a field marked `"x-triton-ops-schema": "<Name>"`) with the
 * schema kubernetes-models ships for them (`kubernetes-models/_schemas/<Name>`), so a vendored kind needs nothing
 * beyond the kubernetes-models package; without it, its schema check is skipped like any other. A custom resource's
 * `metadata` is an ObjectMeta whatever its CRD says (the API server handles it so): it is validated with the schema of
 * @kubernetes-models/apimachinery, which kubernetes-models depends on, as kubernetes-models' own CRD generator does for
 * every custom resource (tommy351/kubernetes-models-ts:utils/crd-generate/src/generate.ts@f819b64 line 103).
 */
import { existsSync, readFileSync, realpathSync } from 'fs';
import { createRequire } from 'module';
import { dirname, join } from 'path';
import { pathToFileURL } from 'url';
import { packageFile } from '../private/package-files';

/** `<apiVersion> <kind>` -> its schema file under `schemas/`. */
export const VENDORED_SCHEMAS: Readonly<Record<string, string>> = Object.freeze({
  'leaderworkerset.x-k8s.io/v1 LeaderWorkerSet': 'leaderworkerset.x-k8s.io_v1_LeaderWorkerSet.json',
  'inference.networking.k8s.io/v1 InferencePool': 'inference.networking.k8s.io_v1_InferencePool.json',
  'llm-d.ai/v1alpha2 InferenceObjective': 'llm-d.ai_v1alpha2_InferenceObjective.json',
  'gateway.networking.k8s.io/v1 Gateway': 'gateway.networking.k8s.io_v1_Gateway.json',
  'gateway.networking.k8s.io/v1 HTTPRoute': 'gateway.networking.k8s.io_v1_HTTPRoute.json',
});

/** The keyword that stands for an embedded Kubernetes type: its value names the kubernetes-models schema. */
export const EMBEDDED_SCHEMA_KEYWORD = 'x-triton-ops-schema';

/** The package whose schemas and validator the vendored schemas use. */
const KUBERNETES_MODELS = 'kubernetes-models';
const VALIDATE_PACKAGE = '@kubernetes-models/validate';
/** The package (a dependency of kubernetes-models) with the schema of ObjectMeta, and that schema. */
const APIMACHINERY_PACKAGE = '@kubernetes-models/apimachinery';
const OBJECT_META_SCHEMA = 'IoK8sApimachineryPkgApisMetaV1ObjectMeta';

type Importer = (specifier: string) => Promise<Record<string, unknown>>;
interface ValidationContext { instancePath: string; parentData?: unknown; parentDataProperty?: string | number; rootData?: unknown }
type ValidateFunction = ((data: unknown, context?: ValidationContext) => boolean) & { errors?: unknown[] | null };
/** The part of Ajv (v8) this file uses. */
interface Ajv {
  addFormat(name: string, format: unknown): Ajv;
  addKeyword(definition: object): Ajv;
  compile(schema: object): ValidateFunction;
}
type AjvClass = new (options: object) => Ajv;

/**
 * A model as check-schema.ts uses one, like kubernetes-models' models: its prototype's `validate()` validates `this`
 * and throws `{ errors }` (Ajv's) when invalid.
 */
export interface VendoredModel {
  readonly apiVersion: string;
  readonly kind: string;
  readonly prototype: { validate(this: object): void };
}

/** The schema file of `apiVersion`/`kind`, or undefined when none is vendored. */
export function vendoredSchemaFile(apiVersion: string, kind: string): string | undefined {
  return VENDORED_SCHEMAS[`${apiVersion} ${kind}`];
}

/** The `package.json` of `name` as Node resolves it from `from` (a file), through symlinks (pnpm); undefined if absent. */
function packageJsonOf(name: string, from: string): string | undefined {
  for (const dir of createRequire(from).resolve.paths(name) ?? []) {
    const file = join(dir, name, 'package.json');
    if (existsSync(file)) return realpathSync(file);
  }
  return undefined;
}

/** The kubernetes-models schema names a vendored schema refers to. */
function embeddedSchemas(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => embeddedSchemas(n, out));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === EMBEDDED_SCHEMA_KEYWORD && typeof value === 'string') out.add(value);
      else embeddedSchemas(value, out);
    }
  }
  return out;
}

/** What @kubernetes-models/validate exports: its formats, and the runner that words Ajv's errors (ajv-i18n, English). */
interface ValidatePackage {
  readonly formats: Record<string, unknown>;
  readonly runValidateFunc: (validate: ValidateFunction, data: unknown) => void;
}

/** The `package.json` of `name`, a dependency of kubernetes-models, as kubernetes-models resolves it. */
function besideKubernetesModels(name: string): string {
  const models = packageJsonOf(KUBERNETES_MODELS, __filename);
  const found = models && packageJsonOf(name, models);
  if (!found) throw new Error(`${name} not found beside ${KUBERNETES_MODELS}; reinstall ${KUBERNETES_MODELS}`);
  return found;
}

/**
 * Ajv as kubernetes-models' validator loads it: resolved from @kubernetes-models/validate, itself resolved from
 * kubernetes-models (a project's top-level `ajv` may be another major, e.g. ESLint's v6), with that package's formats;
 * and the package's runner, which throws the errors worded as for every kubernetes-models model. Ajv is loaded through
 * `importer` like the formats: Ajv tells a RegExp format (`ipv4`, `ipv6` of the Gateway API schemas) by `instanceof
 * RegExp`, which fails for a RegExp of another module loader's realm (jest's sandbox beside Node's own `import()`).
 */
async function kubernetesModelsAjv(importer: Importer): Promise<{ ajv: Ajv; run: ValidatePackage['runValidateFunc'] }> {
  const validate = besideKubernetesModels(VALIDATE_PACKAGE);
  const ajvModule = await importer(pathToFileURL(createRequire(validate).resolve('ajv')).href) as { default: { default?: AjvClass } & AjvClass };
  const AjvClass = ajvModule.default.default ?? ajvModule.default;
  const entry = (JSON.parse(readFileSync(validate, 'utf8')) as { exports: { '.': { import: string } } }).exports['.'].import;
  const { formats, runValidateFunc } = await importer(pathToFileURL(join(dirname(validate), entry)).href) as unknown as ValidatePackage;
  // allErrors: every problem of an object at once, as kubernetes-models reports them; strict: false accepts the
  // Kubernetes extension keywords (x-kubernetes-*: list types, int-or-string, CEL rules), which Ajv does not evaluate.
  const ajv = new AjvClass({ allErrors: true, strict: false, logger: false });
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  return { ajv, run: runValidateFunc };
}

/**
 * The model of a vendored schema: `file` under `schemas/`, compiled with kubernetes-models' Ajv and formats, its
 * embedded Kubernetes types validated by kubernetes-models' schemas (imported through `importer`, first, so that a
 * missing kubernetes-models is reported as such).
 */
export async function vendoredModel(apiVersion: string, kind: string, file: string, importer: Importer): Promise<VendoredModel> {
  const schema = JSON.parse(readFileSync(packageFile(join('schemas', file)), 'utf8')) as { properties: Record<string, object> };
  const embedded = new Map<string, ValidateFunction>();
  for (const name of [...embeddedSchemas(schema)].sort()) {
    embedded.set(name, (await importer(`${KUBERNETES_MODELS}/_schemas/${name}`)).validate as ValidateFunction);
  }
  const apimachinery = dirname(besideKubernetesModels(APIMACHINERY_PACKAGE));
  const objectMeta = pathToFileURL(join(apimachinery, '_schemas', `${OBJECT_META_SCHEMA}.js`)).href;
  embedded.set(OBJECT_META_SCHEMA, (await importer(objectMeta)).validate as ValidateFunction);
  schema.properties.metadata = { type: 'object', [EMBEDDED_SCHEMA_KEYWORD]: OBJECT_META_SCHEMA };
  const { ajv, run } = await kubernetesModelsAjv(importer);
  const validateEmbedded = Object.assign((name: string, data: unknown, _parent: unknown, context: ValidationContext): boolean => {
    const validate = embedded.get(name)!;
    const valid = validate(data, { instancePath: context.instancePath, parentData: context.parentData,
      parentDataProperty: context.parentDataProperty, rootData: context.rootData });
    validateEmbedded.errors = validate.errors ?? null;
    return valid;
  }, { errors: null as unknown[] | null });
  // The embedded validators' errors carry their full instancePath, which Ajv keeps; kubernetes-models compiles them
  // without messages, which `run` words for them and Ajv's alike.
  ajv.addKeyword({ keyword: EMBEDDED_SCHEMA_KEYWORD, schemaType: 'string', errors: true, validate: validateEmbedded });
  const validate = ajv.compile(schema);
  return class {
    public static readonly apiVersion = apiVersion;
    public static readonly kind = kind;
    public validate(this: object): void {
      run(validate, this);
    }
  };
}
