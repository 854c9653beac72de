/**
 * How Triton decides which models to load (`--model-control-mode`).
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_management.md
 */
export class ModelControl {
  /**
   * Load every model in the repository at start-up and never change them (the safest choice). Triton still
   * serves the repository index and the model-config API in this mode, so they are fenced like in the others.
   */
  public static none(options: AdminKeyOptions = {}): ModelControl {
    return new ModelControl('none', undefined, options.adminKeySecret, 0);
  }

  /**
   * Load only the named models at start-up (`--load-model`); the repository API that could load others
   * is fenced with `--http-restricted-api` / `--grpc-restricted-protocol`, as in every mode.
   * @param options.load models to load; default every model of the server
   */
  public static explicit(options: ExplicitModelControlOptions = {}): ModelControl {
    return new ModelControl('explicit', options.load, options.adminKeySecret, 0);
  }

  /**
   * Reload models whenever the repository changes. Changes then reach production without a rollout,
   * a probe or a PodDisruptionBudget, so it takes an explicit acknowledgement. The repository index and the
   * model-config API are fenced like in the other modes.
   */
  public static poll(options: PollModelControlOptions): ModelControl {
    return new ModelControl('poll', undefined, options.adminKeySecret, options.intervalSeconds);
  }

  private constructor(
    public readonly mode: 'none' | 'explicit' | 'poll',
    /** Explicit mode: the models to load; undefined means all of the server's models. */
    public readonly load: readonly string[] | undefined,
    public readonly adminKeySecret: SecretKeyReference | undefined,
    /** Poll mode: seconds between repository scans. */
    public readonly pollIntervalSeconds: number,
  ) {}
}

/** A key of a Kubernetes Secret in the server's namespace. */
export interface SecretKeyReference {
  readonly name: string;
  readonly key: string;
}

/**
 * The key that unlocks the model-repository and model-config APIs (`--http-restricted-api` /
 * `--grpc-restricted-protocol`), fenced in every mode: Triton serves the repository index and each model's
 * configuration whatever the mode; only load and unload depend on it.
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_management.md
 */
export interface AdminKeyOptions {
  /**
   * Secret holding the value of the `triton-admin-key` header that unlocks the model-repository and
   * model-config APIs.
   * @default - the key is the pod's UID (downward API): only someone who can read the Pod object, an
   * operator, can call those APIs
   */
  readonly adminKeySecret?: SecretKeyReference;
}

export interface ExplicitModelControlOptions extends AdminKeyOptions {
  /** @default - every model of the server */
  readonly load?: string[];
}

export interface PollModelControlOptions extends AdminKeyOptions {
  /** Seconds between repository scans (`--repository-poll-secs`). */
  readonly intervalSeconds: number;
  /** Acknowledges that repository changes go live without a rollout. */
  readonly acceptLiveReloads: true;
}
