/**
 * Tables of upstream facts behind our constants (the routing's, the model configuration's): each row holds our value, the value its source states (read
 * in the pinned mirror when the row was written) and the source as `owner/repo:path@ref line N`; several sources are
 * joined with `; `. CI has no mirrors, so a row proves that our constant is what the cited line said, and a new pin
 * fails here until its rows are read again at the new ref.
 */

/** One fact. */
export interface CitedFact {
  readonly fact: string;
  /** Our constant (or what our code writes). */
  readonly value: unknown;
  /** What the source states, as read. */
  readonly upstream: unknown;
  readonly source: string;
}

/** The refs read, by repository: a row citing another ref of a pinned repository fails. */
export const PINS: Readonly<Record<string, readonly string[]>> = {
  'llm-d/llm-d-router': ['v0.10.0'],
  'kubernetes-sigs/gateway-api-inference-extension': ['v1.6.2'],
  'kubernetes-sigs/gateway-api': ['v1.7.0'],
  // r25.03 shows what 25.03 lacks, r25.04 what it gained.
  'triton-inference-server/tensorrtllm_backend': ['r25.03', 'r25.04'],
  'triton-inference-server/vllm_backend': ['r26.01'],
  // The picker's leader election: the versions llm-d-router v0.10.0's go.mod pins (lines 54, 58).
  'kubernetes-sigs/controller-runtime': ['v0.23.3'],
  'kubernetes/client-go': ['v0.35.7'],
  // The release of the examples' images (nvcr.io/nvidia/tritonserver:26.07-py3).
  'triton-inference-server/common': ['r26.07'],
  'triton-inference-server/server': ['r26.07'],
};

const CITATION = /^([\w.-]+\/[\w.-]+):([\w./-]+)@([\w.-]+) lines? \d+(-\d+)?(, \d+(-\d+)?)*$/;

/** One test per row: our value is the upstream one, and every source is a citation at a pinned ref. */
export function describeCitedFacts(title: string, facts: readonly CitedFact[]): void {
  describe(title, () => {
    test.each(facts.map((f) => [f.fact, f] as const))('%s', (_, f) => {
      for (const source of f.source.split('; ')) {
        const m = CITATION.exec(source);
        expect({ source, citation: m !== null }).toEqual({ source, citation: true });
        expect({ source, pinned: PINS[m![1]]?.includes(m![3]) }).toEqual({ source, pinned: true });
      }
      expect(f.value).toEqual(f.upstream);
    });
  });
}
