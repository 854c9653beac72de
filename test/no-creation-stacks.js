/**
 * Stands in for the stack-trace helper of cdktf (tokens/private/stack-trace) and of constructs (private/stack-trace)
 * under jest (jest.config.js maps them here). cdktf captures the whole stack of every token it creates, for a message
 * shown only if the token fails to resolve, and jest maps every frame of it through the source maps: 8 s of the suite's
 * CPU. Synthesized output does not depend on these stacks.
 */
exports.captureStackTrace = () => [];
