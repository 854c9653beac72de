/**
 * A description file imports from 'triton-ops/fleet' only (README, docs/fleets.md), so every type it may need to name is
 * exported there: walks the declarations from `FleetDescription` (property types, unions, arrays, type arguments,
 * extended interfaces, the kept properties of an Omit or Pick) and lists each interface, type alias, enum or class
 * declared in lib/ that the entry does not export. Of a class, a description uses what makes one: the parameters of its
 * public static factories and public constructor (`ResponseCache.local(options)`); its other members are what the
 * library reads from it. Members marked @internal are skipped. One ts.Program over the entry file; nothing is
 * type-checked.
 */
import { join, sep } from 'path';
import * as ts from 'typescript';

const LIB = join(__dirname, '..', '..', 'lib') + sep;
const ENTRY = join(LIB, 'fleet', 'index.ts');
const NAMED = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum | ts.SymbolFlags.Class;
/** Mapped types whose source's properties are walked only where they are kept (the source itself needs no name). */
const PROPERTY_FILTERS = new Set(['Omit', 'Pick']);

/** Every named type declared in lib/ that is reachable from `root`, with the path of declarations that reaches it. */
function reachableTypes(root: string): { program: ts.Program; entry: ts.Symbol; found: Map<ts.Symbol, string> } {
  const program = ts.createProgram([ENTRY], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true, skipLibCheck: true, noEmit: true, types: [],
  });
  const checker = program.getTypeChecker();
  const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
  const found = new Map<ts.Symbol, string>();
  const inLib = (d: ts.Node) => d.getSourceFile().fileName.startsWith(LIB.split(sep).join('/'));
  const resolve = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);

  const visitNamed = (symbol: ts.Symbol, via: string): void => {
    const declarations = (symbol.declarations ?? []).filter(inLib);
    if (!(symbol.flags & NAMED) || declarations.length === 0 || found.has(symbol)) return;
    const path = `${via} -> ${symbol.name}`;
    found.set(symbol, path);
    for (const d of declarations) {
      if (ts.isInterfaceDeclaration(d)) {
        for (const clause of d.heritageClauses ?? []) for (const t of clause.types) visitType(t, path);
        for (const member of d.members) visitMember(member, path);
      } else if (ts.isClassDeclaration(d)) {
        for (const member of d.members) {
          const factory = ts.isMethodDeclaration(member) && ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static;
          if (factory || ts.isConstructorDeclaration(member)) visitMember(member, path);
        }
      } else if (ts.isTypeAliasDeclaration(d)) {
        visitType(d.type, path);
      }
    }
  };

  const visitMember = (member: ts.Node, via: string): void => {
    const flags = ts.getCombinedModifierFlags(member as ts.Declaration);
    if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return;
    if (ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal')) return;
    if (ts.isPropertySignature(member) || ts.isPropertyDeclaration(member) || ts.isGetAccessorDeclaration(member)
      || ts.isIndexSignatureDeclaration(member)) {
      if (member.type) visitType(member.type, via);
    } else if (ts.isMethodSignature(member) || ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) {
      for (const p of member.parameters) if (p.type) visitType(p.type, via);
      if (member.type) visitType(member.type, via);
    }
  };

  const visitType = (node: ts.Node, via: string): void => {
    if (ts.isTypeQueryNode(node)) return; // `typeof x`: a value, not a named type
    const name = ts.isTypeReferenceNode(node) ? node.typeName
      : ts.isExpressionWithTypeArguments(node) ? node.expression : undefined;
    if (name) {
      const symbol = resolve(checker.getSymbolAtLocation(name)!);
      if (PROPERTY_FILTERS.has(symbol.name) && !(symbol.declarations ?? []).some(inLib)) {
        for (const property of checker.getPropertiesOfType(checker.getTypeAtLocation(node))) {
          for (const d of property.declarations ?? []) if (inLib(d)) visitMember(d, `${via}.${property.name}`);
        }
        return;
      }
      visitNamed(symbol, via);
    }
    ts.forEachChild(node, (child) => visitType(child, via));
  };

  const description = checker.getExportsOfModule(entry).find((s) => s.name === root)!;
  visitNamed(resolve(description), 'triton-ops/fleet');
  return { program, entry, found };
}

test("every type a fleet description reaches is exported by 'triton-ops/fleet'", () => {
  const { program, entry, found } = reachableTypes('FleetDescription');
  const checker = program.getTypeChecker();
  const exported = new Set(checker.getExportsOfModule(entry)
    .map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s)));
  // The walk sees through Omit (ServerDescription), classes (ResponseCache's options) and unions.
  expect([...found.keys()].map((s) => s.name)).toEqual(expect.arrayContaining(
    ['FleetDescription', 'ServerDescription', 'ModelConfig', 'ResponseCache', 'LocalResponseCacheOptions']));
  const missing = [...found].filter(([symbol]) => !exported.has(symbol)).map(([, path]) => path);
  expect(missing).toEqual([]);
});
