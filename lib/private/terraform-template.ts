/**
 * Every string value in Terraform JSON is a template: `${...}` is an interpolation and `%{...}` a directive.
 * Data that must reach AWS byte for byte (a config.pbtxt, a manifest field) has to escape both.
 *
 * cdktf's `Fn.rawString` is not the tool for an attribute value: it is meant for string literals inside an
 * expression, so as a plain value it turns every `"` into `\"` and every newline into a literal `\n`, and it leaves
 * `%{` alone (Terraform then fails with "Invalid template control keyword"). Checked with Terraform 1.11.
 */

/**
 * Escapes `text` so that Terraform reads it back unchanged: `${` becomes `$${` and `%{` becomes `%%{`. Newlines,
 * quotes and backslashes need nothing: JSON already carries them. Never pass a string holding cdktf tokens.
 * @see https://developer.hashicorp.com/terraform/language/syntax/json#expression-mapping
 */
export function escapeTerraformTemplate(text: string): string {
  return text.replace(/([$%])\{/g, '$1$1{');
}
