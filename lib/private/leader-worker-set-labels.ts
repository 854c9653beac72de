/**
 * The labels LeaderWorkerSet puts on the pods of a LeaderWorkerSet, beside the labels of its templates, as of
 * kubernetes-sigs/lws v0.10.0 (the version the add-ons stack installs). Pure: no cdk8s, no cdktf.
 * - the controller, on the leaders' StatefulSet template: `name`, `worker-index: "0"`, `template-revision-hash`;
 * - the controller, on each group's workers' StatefulSet template: `name`, `group-index`, `group-key`,
 *   `template-revision-hash`;
 * - the pod webhook, on each pod: `group-index` and `group-key` on a leader (unless present), `worker-index` on a
 *   worker, `subgroup-index` and `subgroup-key` with a subGroupPolicy.
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/api/leaderworkerset/v1/leaderworkerset_types.go
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/pkg/controllers/leaderworkerset_controller.go
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/pkg/controllers/pod_controller.go
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/pkg/webhooks/pod_webhook.go
 */

/** The prefix of every label (and annotation) LeaderWorkerSet sets. */
export const LWS_LABEL_PREFIX = 'leaderworkerset.sigs.k8s.io/';

/** The pod labels of LeaderWorkerSet, by their Go constant's name. */
export const LWS_POD_LABELS = {
  /** SetNameLabelKey: the LeaderWorkerSet's name, on every pod of it. */
  name: `${LWS_LABEL_PREFIX}name`,
  /** WorkerIndexLabelKey: the pod's index in its group, `0` on the leader. */
  workerIndex: `${LWS_LABEL_PREFIX}worker-index`,
  /** GroupIndexLabelKey: the index of the pod's group. */
  groupIndex: `${LWS_LABEL_PREFIX}group-index`,
  /** GroupUniqueHashLabelKey: a hash unique to the pod's group. */
  groupKey: `${LWS_LABEL_PREFIX}group-key`,
  /** RevisionKey: the revision of the templates the pod was made from. */
  templateRevisionHash: `${LWS_LABEL_PREFIX}template-revision-hash`,
  /** SubGroupIndexLabelKey (with a subGroupPolicy). */
  subGroupIndex: `${LWS_LABEL_PREFIX}subgroup-index`,
  /** SubGroupUniqueHashLabelKey (with a subGroupPolicy). */
  subGroupKey: `${LWS_LABEL_PREFIX}subgroup-key`,
} as const;

/** The leader's `worker-index`. */
export const LWS_LEADER_WORKER_INDEX = '0';

/** `spec.leaderWorkerTemplate.size` when it is not given (the CRD's default): the leader alone. */
export const LWS_DEFAULT_SIZE = 1;
