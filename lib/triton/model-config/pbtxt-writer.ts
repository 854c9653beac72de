/**
 * A small writer for protobuf text format, the syntax of config.pbtxt. It knows the syntax, not Triton:
 * render-model-config.ts decides which fields exist.
 *
 * Layout rules (fixed, so the output is byte-stable and diffs stay small):
 * - scalars `name: value`, enums bare, strings double-quoted and escaped;
 * - scalar lists `name: [ 1, 2 ]`;
 * - message fields as blocks `name {` ... `}` with two-space indentation, or on one line `name: { ... }`
 *   when the caller marks them inline (short fixed-shape messages such as version_policy or reshape);
 * - repeated messages `name [ { ... }, { ... } ]`, one element per block;
 * - map entries one per line, `name { key: "k" value: ... }`, sorted by key so that object key order never
 *   changes the output.
 * @see https://protobuf.dev/reference/protobuf/textformat-spec/
 */

type Field =
  | { readonly kind: 'scalar'; readonly name: string; readonly text: string }
  | { readonly kind: 'list'; readonly name: string; readonly items: readonly string[] }
  | { readonly kind: 'message'; readonly name: string; readonly message: PbMessage; readonly inline: boolean }
  | { readonly kind: 'messages'; readonly name: string; readonly messages: readonly PbMessage[] }
  | { readonly kind: 'entry'; readonly name: string; readonly message: PbMessage };

const INDENT = '  ';

/**
 * Quotes a string for text format. Backslash, double quote and the common control characters get their C
 * escapes, other control characters an octal escape; everything else (including non-ASCII) is kept as UTF-8,
 * which the text-format parser reads as-is.
 */
export function quote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += '\\' + code.toString(8).padStart(3, '0');
    else out += ch;
  }
  return out + '"';
}

/** A number as text format writes it. Callers validate first; non-finite values still come out parseable. */
function num(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** One message under construction. Setters skip `undefined`, so optional config fields need no `if`. */
export class PbMessage {
  private readonly fields: Field[] = [];

  /** True when no field was set. */
  public get empty(): boolean {
    return this.fields.length === 0;
  }

  /** `name: "value"`, escaped. */
  public string(name: string, value: string | undefined): this {
    if (value !== undefined) this.fields.push({ kind: 'scalar', name, text: quote(value) });
    return this;
  }

  /** `name: 42` for any numeric field (int32, uint64, float...). */
  public number(name: string, value: number | undefined): this {
    if (value !== undefined) this.fields.push({ kind: 'scalar', name, text: num(value) });
    return this;
  }

  /** `name: true`; an explicit false is written too. */
  public bool(name: string, value: boolean | undefined): this {
    if (value !== undefined) this.fields.push({ kind: 'scalar', name, text: value ? 'true' : 'false' });
    return this;
  }

  /** An enum value, written bare (`kind: KIND_GPU`). */
  public enum(name: string, value: string | undefined): this {
    if (value !== undefined) this.fields.push({ kind: 'scalar', name, text: value });
    return this;
  }

  /** `name: [ 1, 2 ]`; an empty list is written as `[ ]` (it matters inside a message such as reshape). */
  public numbers(name: string, values: readonly number[] | undefined): this {
    if (values !== undefined) this.fields.push({ kind: 'list', name, items: values.map(num) });
    return this;
  }

  /** `name: [ false, true ]`. */
  public bools(name: string, values: readonly boolean[] | undefined): this {
    if (values !== undefined) this.fields.push({ kind: 'list', name, items: values.map((v) => (v ? 'true' : 'false')) });
    return this;
  }

  /** A singular message field; `inline` puts it on one line. */
  public message(name: string, message: PbMessage | undefined, inline = false): this {
    if (message !== undefined) this.fields.push({ kind: 'message', name, message, inline });
    return this;
  }

  /** A repeated message field; an empty list writes nothing (the same as an unset repeated field). */
  public messages(name: string, messages: readonly PbMessage[] | undefined): this {
    if (messages !== undefined && messages.length > 0) this.fields.push({ kind: 'messages', name, messages });
    return this;
  }

  /** A map field: one entry per key, sorted by key (UTF-16 code-unit order), the value built by `value`. */
  public map<V>(name: string, entries: Readonly<Record<string, V>> | undefined, value: (v: V, entry: PbMessage) => void): this {
    if (entries === undefined) return this;
    for (const key of Object.keys(entries).sort(compareKeys)) {
      const entry = new PbMessage().string('key', key);
      value(entries[key], entry);
      this.fields.push({ kind: 'entry', name, message: entry });
    }
    return this;
  }

  /** A `map<string, string>` field. */
  public stringMap(name: string, entries: Readonly<Record<string, string>> | undefined): this {
    return this.map(name, entries, (v, entry) => entry.string('value', v));
  }

  /** The message as top-level text: one field per line, trailing newline. */
  public render(): string {
    return this.lines(0).join('\n') + '\n';
  }

  /** `{ a: 1 b { c: 2 } }` on one line. */
  public inline(): string {
    if (this.fields.length === 0) return '{ }';
    return `{ ${this.fields.map(inlineField).join(' ')} }`;
  }

  /** The fields as lines at a given depth. */
  public lines(depth: number): string[] {
    const pad = INDENT.repeat(depth);
    const out: string[] = [];
    for (const f of this.fields) {
      switch (f.kind) {
        case 'scalar':
        case 'list':
        case 'entry':
          out.push(pad + inlineField(f));
          break;
        case 'message':
          if (f.inline || f.message.empty) out.push(pad + inlineField(f));
          else out.push(`${pad}${f.name} {`, ...f.message.lines(depth + 1), `${pad}}`);
          break;
        case 'messages':
          out.push(`${pad}${f.name} [`);
          f.messages.forEach((m, i) => {
            const comma = i < f.messages.length - 1 ? ',' : '';
            if (m.empty) out.push(`${pad}${INDENT}{ }${comma}`);
            else out.push(`${pad}${INDENT}{`, ...m.lines(depth + 2), `${pad}${INDENT}}${comma}`);
          });
          out.push(`${pad}]`);
          break;
      }
    }
    return out;
  }
}

function inlineField(f: Field): string {
  switch (f.kind) {
    case 'scalar':
      return `${f.name}: ${f.text}`;
    case 'list':
      return f.items.length === 0 ? `${f.name}: [ ]` : `${f.name}: [ ${f.items.join(', ')} ]`;
    case 'message':
      return `${f.name}: ${f.message.inline()}`;
    case 'messages':
      return `${f.name} [ ${f.messages.map((m) => m.inline()).join(', ')} ]`;
    case 'entry':
      return `${f.name} ${f.message.inline()}`;
  }
}

/** UTF-16 code-unit order: independent of the host locale, which localeCompare is not. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
