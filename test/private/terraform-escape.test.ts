import { TerraformLocal, TerraformOutput, Testing } from 'cdktf';
import { escapeTemplate, escapeTemplates, JsonValue } from '../../lib/private/terraform-escape';

/**
 * Synthesizes `build(token)` escaped, where token is a reference to `local.arn`. The expected strings were
 * also applied with Terraform 1.11 (as outputs), which read every one back as the input with ARN in place.
 */
function synthEscaped(build: (token: string) => string): string {
  const json = Testing.synthScope((stack) => {
    const token = new TerraformLocal(stack, 'arn', 'ARN').asString;
    new TerraformOutput(stack, 'out', { value: escapeTemplate(build(token)) });
  });
  return JSON.parse(json).output.out.value;
}

describe('escapeTemplate', () => {
  test.each<[string, string, string]>([
    ['plain text', 'nvcr.io/nvidia/tritonserver:24.08-py3', 'nvcr.io/nvidia/tritonserver:24.08-py3'],
    ['interpolation and directive', 'a ${b} %{c}', 'a $${b} %%{c}'],
    ['an already escaped sequence, kept as text', 'a $${b}', 'a $$${b}'],
    ['braces without an opener', '{"k": {"v": 1}}', '{"k": {"v": 1}}'],
    ['a lone $ or % at the end', 'cost: 5$ 10%', 'cost: 5$ 10%'],
    ['newlines stay real newlines', 'line 1\nline ${2}\n', 'line 1\nline $${2}\n'],
  ])('%s', (_, input, expected) => {
    expect(escapeTemplate(input)).toBe(expected);
  });

  test.each<[string, (token: string) => string, string]>([
    ['a token alone', (t) => t, '${local.arn}'],
    ['two tokens', (t) => `${t}/${t}`, '${local.arn}/${local.arn}'],
    ['literals around a token', (t) => `\${x}-${t}-%{y}\n`, '$${x}-${local.arn}-%%{y}\n'],
    // cdktf alone would read `${ROLE:-` as an expression it has to close and render the reference bare.
    ['a token inside a literal ${...}', (t) => `export ROLE=\${ROLE:-${t}}`, 'export ROLE=$${ROLE:-${local.arn}}'],
    ['an opener right before a token', (t) => `\${${t}`, '$${${local.arn}'],
    // `$` + `${ref}` would read as the escape `$${`; the $ is interpolated as a constant instead.
    ['a $ right before a token', (t) => `cost $${t}`, 'cost ${"$"}${local.arn}'],
    ['$$ right before a token', (t) => `$$${t}$`, '${"$$"}${local.arn}$'],
    ['a % right before a token needs nothing', (t) => `%${t}`, '%${local.arn}'],
  ])('%s', (_, build, expected) => {
    expect(synthEscaped(build)).toBe(expected);
  });
});

describe('escapeTemplates', () => {
  test('escapes keys and values at every depth and copies rather than mutates', () => {
    const input: JsonValue = { 'a/${k}': ['%{v}', { 'n${': '${x}' }] };
    expect(escapeTemplates(input)).toEqual({ 'a/$${k}': ['%%{v}', { 'n$${': '$${x}' }] });
    expect(input).toEqual({ 'a/${k}': ['%{v}', { 'n${': '${x}' }] });
  });

  test('numbers, booleans, nulls and empty objects and arrays pass through unchanged', () => {
    const input: JsonValue = { n: 0, f: 1.5, neg: -3, t: true, b: false, z: null, o: {}, a: [], nested: [[], {}, null, 2] };
    expect(escapeTemplates(input)).toStrictEqual(input);
  });

  test('an undefined array element becomes null and an undefined field is left out, as in cdk8s YAML', () => {
    expect(escapeTemplates({ list: [undefined, 1], gone: undefined })).toStrictEqual({ list: [null, 1] });
  });
});
