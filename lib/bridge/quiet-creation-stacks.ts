/**
 * Every cdktf Manifest builds six token holders for its optional blocks (wait_for, wait, wait.condition,
 * timeouts, field_manager), and each records a full, formatted stack trace "to explain resolution errors".
 * Formatting those traces was two thirds of the bridge's construction time (100 servers: 70 of 105 ms).
 * The bridge never sets those blocks, so their traces can never be shown.
 */

/**
 * Runs `create` while stack traces format to an empty string, then restores the previous formatter, also
 * when `create` throws. V8 formats `error.stack` lazily, on first access: an Error thrown from `create`
 * is read after the restore and keeps its normal stack. cdktf treats an empty trace as "no trace".
 */
export function withQuietCreationStacks<T>(create: () => T): T {
  const own = Object.prototype.hasOwnProperty.call(Error, 'prepareStackTrace');
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = () => '';
  try {
    return create();
  } finally {
    if (own) Error.prepareStackTrace = previous;
    else delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
  }
}
