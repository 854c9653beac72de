/**
 * An autoscaler's time run faster in verify: its scaling policies' periods and windows divided by `--time-scale`, so that
 * a five-minute stabilization window takes 30 s at the default 10. The HPAs of the output and the ScaledObjects (whose
 * behavior KEDA copies into the HPA it makes) take the same.
 */

/** An HPA's behavior with every period and window divided by `scale` (at least 1 s; a window may stay 0). */
export function scaledBehavior(behavior: any, scale: number): any {
  if (!behavior) return behavior;
  const direction = (d: any) => d && ({
    ...d,
    ...(d.stabilizationWindowSeconds !== undefined ? { stabilizationWindowSeconds: Math.round(d.stabilizationWindowSeconds / scale) } : {}),
    ...(d.policies ? { policies: d.policies.map((p: any) => ({ ...p, periodSeconds: Math.max(1, Math.round(p.periodSeconds / scale)) })) } : {}),
  });
  return { ...(behavior.scaleUp ? { scaleUp: direction(behavior.scaleUp) } : {}), ...(behavior.scaleDown ? { scaleDown: direction(behavior.scaleDown) } : {}) };
}
