/** Labels shared by every object of a server; the selector uses the two that never change. */

export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'triton-ops' } as const;

/** `app.kubernetes.io/name` of every Triton pod. */
export const TRITON_SERVER_APP_NAME = 'triton-server';

/** `app.kubernetes.io/name` of every load-test pod (TritonLoadTest). */
export const LOAD_TEST_APP_NAME = 'triton-load-test';

/** Labels that select a server's pods: stable for the life of the Deployment. */
export function selectorLabels(serverName: string): Record<string, string> {
  return { 'app.kubernetes.io/name': TRITON_SERVER_APP_NAME, 'app.kubernetes.io/instance': serverName };
}

/** Labels on every object of a server. */
export function serverLabels(serverName: string): Record<string, string> {
  return { ...selectorLabels(serverName), 'app.kubernetes.io/component': 'inference-server', ...MANAGED_BY };
}

/** Label that Kubernetes puts on every namespace, used to select namespaces by name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** `app.kubernetes.io/name` of every endpoint-picker pod (the EPP of a server's InferencePool). */
export const ENDPOINT_PICKER_APP_NAME = 'endpoint-picker';

/** Labels that select the pods of endpoint picker `pickerName` (endpointPickerName of its server). */
export function endpointPickerSelectorLabels(pickerName: string): Record<string, string> {
  return { 'app.kubernetes.io/name': ENDPOINT_PICKER_APP_NAME, 'app.kubernetes.io/instance': pickerName };
}
