/**
 * Terraform template escaping for values that go into Terraform JSON.
 *
 * In Terraform's JSON syntax every string (and every object key) is a template: `${...}` interpolates and
 * `%{...}` is a directive. A Kubernetes object routinely carries both as literal text (shell scripts, Helm-ish
 * config files, Prometheus templates), and Terraform would evaluate them or fail to parse. The escapes are
 * `$${` and `%%{`.
 *
 * cdktf tokens are the exception: a string such as `arn-${TfToken[TOKEN.12]}` stands for a Terraform
 * reference that cdktf renders at synth (`arn-${aws_iam_role.x.arn}`). Escaping the marker would turn the
 * reference into literal text, so only the literal parts around the markers are escaped.
 *
 * cdktf's `Fn.rawString` is not the tool for an attribute value: it is meant for string literals inside an
 * expression, so as a plain value it turns every `"` into `\"` and every newline into a literal `\n`, and it
 * leaves `%{` alone (Terraform then fails with "Invalid template control keyword"). Checked with Terraform 1.11.
 */
import { IResolveContext, Lazy, Token, Tokenization } from 'cdktf';

/**
 * cdktf's string token marker, `${TfToken[<id>]}`, with the key characters cdktf allows
 * (cdktf/lib/tokens/private/encoding: BEGIN_STRING_TOKEN_MARKER and VALID_KEY_CHARS). It is an internal
 * encoding, so a test synthesizes a real reference through the bridge to catch a change in a cdktf upgrade.
 */
const TOKEN_MARKER = /\$\{TfToken\[[a-zA-Z0-9:._-]+\]\}/g;

/** `${` and `%{`: the two sequences that open a template construct. */
const TEMPLATE_OPENER = /([$%])\{/g;

/** `$` characters at the end of a literal part. */
const TRAILING_DOLLARS = /\$+$/;

/**
 * Escapes one string so that Terraform reads it back as the same text, keeping cdktf token markers live.
 *
 * A string that mixes literal text with tokens comes back as a new token: cdktf reads a literal `${` next
 * to a token as the start of a hand-written expression and renders the tokens inside it bare
 * (`"${HOME:-" + arn + "}"` would lose the reference), and that holds for the `$${` escape too. So the
 * escaped literals and the separately resolved tokens are joined at synth, where cdktf no longer parses them.
 *
 * @example escapeTemplate('a ${b} %{c}') === 'a $${b} %%{c}'
 */
export function escapeTemplate(text: string): string {
  // Fast path for the vast majority of strings: without `{` there is neither an opener nor a token marker.
  if (!text.includes('{')) return text;
  const parts: { readonly text: string; readonly token: boolean }[] = [];
  let literalStart = 0;
  for (const marker of text.matchAll(TOKEN_MARKER)) {
    if (marker.index > literalStart) parts.push({ text: escapeLiteral(text.slice(literalStart, marker.index), true), token: false });
    parts.push({ text: marker[0], token: true });
    literalStart = marker.index + marker[0].length;
  }
  if (literalStart < text.length) parts.push({ text: escapeLiteral(text.slice(literalStart), false), token: false });
  // No token, or nothing but tokens: no literal for cdktf to misread, the string is final.
  if (parts.every((p) => !p.token) || parts.every((p) => p.token)) return parts.map((p) => p.text).join('');
  return Lazy.stringValue({
    produce: (context: IResolveContext) => parts.map((p) => (p.token ? String(context.resolve(p.text)) : p.text)).join(''),
  });
}

/**
 * Escapes a literal part. A literal `$` right before a token would form `$${` with the reference that the
 * token renders to, which Terraform reads as an escape (the reference would become text), so such `$`s are
 * written as the interpolation of a string constant instead: `${"$"}`.
 */
function escapeLiteral(literal: string, beforeToken: boolean): string {
  const escaped = literal.includes('{') ? literal.replace(TEMPLATE_OPENER, (_, opener: string) => `${opener}${opener}{`) : literal;
  if (!beforeToken || !escaped.endsWith('$')) return escaped;
  return escaped.replace(TRAILING_DOLLARS, (dollars) => `\${"${dollars}"}`);
}

/** JSON as cdk8s renders a Kubernetes object. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Filled in by {@link escapeTemplates}: whether the value holds anything cdktf must resolve. */
export interface TokenScan {
  holdsTokens: boolean;
}

/**
 * A copy of a rendered object with every string and every object key escaped by {@link escapeTemplate}.
 * Numbers, booleans, nulls and empty objects or arrays pass through unchanged, and so do cdktf tokens of
 * any kind (string, number, list and map tokens, resolvable objects), which `scan` records.
 *
 * cdk8s renders a null array element as `undefined` and writes it to YAML as `null`; cdktf would drop it and
 * shift the elements after it, so it becomes `null` here too. Undefined object fields are left out, as in the YAML.
 */
export function escapeTemplates(value: unknown, scan: TokenScan = { holdsTokens: false }): JsonValue {
  if (typeof value === 'string') {
    // Every token marker (`${TfToken[`, `#{TfToken[` for lists, `&{TfToken[` for maps) has a `{`.
    if (value.includes('{') && value.includes('TfToken[')) scan.holdsTokens = true;
    return escapeTemplate(value);
  }
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (Token.isUnresolved(value)) scan.holdsTokens = true;
    return value;
  }
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((element) => escapeTemplates(element, scan));
  if (typeof value !== 'object') throw new TypeError(`not JSON: ${typeof value}`);
  if (Tokenization.isResolvable(value)) {
    scan.holdsTokens = true;
    // cdktf resolves it at synth; the value is not JSON yet, so the type only states where it goes.
    return value as unknown as JsonValue;
  }
  const object = value as Record<string, unknown>;
  const copy: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(object)) {
    if (object[key] !== undefined) copy[escapeTemplates(key, scan) as string] = escapeTemplates(object[key], scan);
  }
  return copy;
}
