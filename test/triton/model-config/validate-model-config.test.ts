import { VersionPolicy, type ModelConfig, type SequenceBatching } from '../../../lib/triton/model-config/model-config';
import {
  ModelConfigError, formatProblem, validateModelConfig, validateModelSet, type ModelConfigProblem, type ModelValidationContext,
} from '../../../lib/triton/model-config/validate-model-config';
import { TritonOpsError } from '../../../lib/private/errors';
import { resnet } from '../fixtures';

const preprocess: ModelConfig = {
  name: 'preprocess',
  backend: 'python',
  maxBatchSize: 32,
  inputs: [{ name: 'RAW', dataType: 'UINT8', dims: [-1] }],
  outputs: [{ name: 'IMAGE', dataType: 'FP32', dims: [3, 224, 224] }],
  dynamicBatching: {},
  instanceGroups: [{ kind: 'KIND_CPU', count: 2 }],
};

const ensemble: ModelConfig = {
  name: 'classify',
  platform: 'ensemble',
  maxBatchSize: 32,
  inputs: [{ name: 'RAW', dataType: 'UINT8', dims: [-1] }],
  outputs: [{ name: 'PROBS', dataType: 'FP32', dims: [1000] }],
  ensembleScheduling: {
    steps: [
      { modelName: 'preprocess', inputMap: { RAW: 'RAW' }, outputMap: { IMAGE: 'image' } },
      { modelName: 'resnet50', inputMap: { input: 'image' }, outputMap: { output: 'PROBS' } },
    ],
  },
};

const sequence: ModelConfig = {
  name: 'tracker',
  backend: 'python',
  maxBatchSize: 8,
  inputs: [{ name: 'x', dataType: 'FP32', dims: [4] }],
  outputs: [{ name: 'y', dataType: 'FP32', dims: [4] }],
  sequenceBatching: {
    strategy: 'oldest', maxCandidateSequences: 4, maxQueueDelayMicroseconds: 100,
    controlInputs: [
      { name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1] }] },
      { name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID', dataType: 'UINT64' }] },
    ],
  },
  modelWarmup: [{ name: 'w', batchSize: 2, inputs: { x: { dataType: 'FP32', dims: [4] }, START: { dataType: 'INT32', dims: [1] } } }],
};

const known: ModelValidationContext = { knownModels: ['preprocess', 'resnet50', 'classify'] };
const errors = (problems: ModelConfigProblem[]) => problems.filter((p) => p.severity === 'error');
const seq = (s: Partial<SequenceBatching>): ModelConfig => ({ ...sequence, sequenceBatching: { ...sequence.sequenceBatching, ...s } });
const dyn = (d: ModelConfig['dynamicBatching']): ModelConfig => ({ ...resnet, dynamicBatching: { ...resnet.dynamicBatching, ...d } });
const steps = (...s: NonNullable<ModelConfig['ensembleScheduling']>['steps']): ModelConfig => ({ ...ensemble, ensembleScheduling: { steps: s } });
const [pre, classify] = ensemble.ensembleScheduling!.steps;
const withWarmup = (w: Partial<NonNullable<ModelConfig['modelWarmup']>[number]>): ModelConfig =>
  ({ ...resnet, modelWarmup: [{ name: 'w', inputs: { input: { dataType: 'FP32', dims: [3, 224, 224] } }, ...w }] });

describe('validateModelConfig', () => {
  test.each([
    ['an ONNX classifier', resnet, {}],
    ['a Python model', preprocess, {}],
    ['an ensemble', ensemble, known],
    ['a sequence model with warmup on control inputs', sequence, {}],
    ['a model on a pod with enough GPUs', { ...resnet, instanceGroups: [{ kind: 'KIND_GPU' as const, gpus: [0] }, { kind: 'KIND_GPU' as const, gpus: [1] }] }, { gpuCount: 2 }],
    // BYTES is Triton's API name for TYPE_STRING: the same type wherever types are compared.
    ['BYTES tensors, a BYTES correlation id and a STRING warmup sample of a BYTES input', {
      ...sequence,
      inputs: [...sequence.inputs!, { name: 'text', dataType: 'BYTES' as const, dims: [1] }],
      outputs: [...sequence.outputs!, { name: 'tokens', dataType: 'BYTES' as const, dims: [-1] }],
      sequenceBatching: { ...sequence.sequenceBatching, controlInputs: [sequence.sequenceBatching!.controlInputs![0],
        { name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID' as const, dataType: 'BYTES' as const }] }] },
      modelWarmup: [{ name: 'w', batchSize: 2, inputs: { ...sequence.modelWarmup![0].inputs, text: { dataType: 'STRING' as const, dims: [1] } } }],
    }, {}],
  ])('accepts %s', (_what, config, context) => {
    expect(validateModelConfig(config, context)).toEqual([]);
  });

  // One row per rule: the config breaks exactly that rule, so exactly one error must come back.
  const rules: [string, ModelConfig, string, string, ModelValidationContext?][] = [
    // name
    ['name is empty', { ...resnet, name: '' }, 'name', 'is empty'],
    ['name is not a directory name (/)', { ...resnet, name: 'a/b' }, 'name', "cannot contain '/'"],
    ['name is ..', { ...resnet, name: '..' }, 'name', 'cannot be a directory name'],
    // platform and backend
    ['neither platform nor backend', { ...preprocess, backend: undefined }, 'backend', 'neither platform nor backend is set'],
    ['unknown platform', { ...resnet, platform: 'onnx' as never }, 'platform', "'onnx' is not a Triton platform"],
    ['unknown backend', { ...preprocess, backend: 'pytorch2' as never }, 'backend', "'pytorch2' is not a Triton backend"],
    ['platform and backend disagree', { ...resnet, backend: 'python' }, 'backend', "does not serve platform 'onnxruntime_onnx' (backend 'onnxruntime' does)"],
    ['an ensemble with a backend', { ...ensemble, backend: 'python' }, 'backend', 'an ensemble has no backend', known],
    // max_batch_size
    ['negative max_batch_size', { ...preprocess, maxBatchSize: -1, dynamicBatching: undefined }, 'max_batch_size', 'must be a whole number >= 0'],
    ['fractional max_batch_size', { ...preprocess, maxBatchSize: 1.5, dynamicBatching: undefined }, 'max_batch_size', 'must be a whole number >= 0'],
    // dynamic batching
    ['preferred batch size 0', dyn({ preferredBatchSizes: [0, 8] }), 'dynamic_batching.preferred_batch_size[0]', '(0) must be a whole number >= 1'],
    ['preferred batch size above max_batch_size', dyn({ preferredBatchSizes: [4, 8, 64] }), 'dynamic_batching.preferred_batch_size[2]', '(64) exceeds max_batch_size (32)'],
    ['dynamic batching without batching', { ...preprocess, maxBatchSize: 0 }, 'dynamic_batching', 'needs max_batch_size > 0'],
    ['negative queue delay', dyn({ maxQueueDelayMicroseconds: -5 }), 'dynamic_batching.max_queue_delay_microseconds', '(-5) must be a whole number >= 0'],
    ['priority levels without a default level', dyn({ priorityLevels: 3 }), 'dynamic_batching.default_priority_level', 'must be in [1, 3]'],
    ['default priority level above the levels', dyn({ priorityLevels: 3, defaultPriorityLevel: 4 }), 'dynamic_batching.default_priority_level', '(4) must be in [1, 3]'],
    ['default priority level without levels', dyn({ defaultPriorityLevel: 1 }), 'dynamic_batching.default_priority_level', 'no effect without priority_levels'],
    ['preserve ordering with priorities', dyn({ preserveOrdering: true, priorityLevels: 2, defaultPriorityLevel: 1 }), 'dynamic_batching.preserve_ordering', 'cannot hold with 2 priority levels'],
    ['preserve ordering with a DELAY policy', dyn({ preserveOrdering: true, defaultQueuePolicy: { timeoutAction: 'DELAY', defaultTimeoutMicroseconds: 1000 } }),
      'dynamic_batching.default_queue_policy.timeout_action', 'preserve_ordering forbids'],
    ['negative queue size', dyn({ defaultQueuePolicy: { maxQueueSize: -1 } }), 'dynamic_batching.default_queue_policy.max_queue_size', 'whole number >= 0'],
    // sequence batching
    ['negative idle time', seq({ maxSequenceIdleMicroseconds: -1 }), 'sequence_batching.max_sequence_idle_microseconds', 'whole number >= 0'],
    ['negative oldest delay', seq({ maxQueueDelayMicroseconds: -1 }), 'sequence_batching.oldest.max_queue_delay_microseconds', 'whole number >= 0'],
    ['candidate sequences under the direct strategy', seq({ strategy: 'direct' }), 'sequence_batching.oldest.max_candidate_sequences', 'applies only to the oldest strategy'],
    ['a control without values', seq({ controlInputs: [{ name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START' }] }] }),
      'sequence_batching.control_input[0].control[0]', 'needs exactly one of int32FalseTrue, fp32FalseTrue or boolFalseTrue, got none'],
    ['a control with two value lists', seq({ controlInputs: [{ name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1], boolFalseTrue: [false, true] }] }] }),
      'sequence_batching.control_input[0].control[0]', 'got int32FalseTrue and boolFalseTrue'],
    ['a control list of three values', seq({ controlInputs: [{ name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1, 2] as never }] }] }),
      'sequence_batching.control_input[0].control[0].int32_false_true', 'exactly 2 values'],
    ['a CORRID control without a data type', seq({ controlInputs: [sequence.sequenceBatching!.controlInputs![0], { name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID' }] }] }),
      'sequence_batching.control_input[1].control[0].data_type', 'must be one of UINT64, INT64, UINT32, INT32, STRING'],
    ['a CORRID control of type FP32', seq({ controlInputs: [sequence.sequenceBatching!.controlInputs![0], { name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID', dataType: 'FP32' }] }] }),
      'sequence_batching.control_input[1].control[0].data_type', '(FP32) must be one of'],
    ['a control kind given twice', seq({ controlInputs: [
      { name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1] }] },
      { name: 'START2', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1] }] }] }),
    'sequence_batching.control_input[1].control[0].kind', 'already given by sequence_batching.control_input[0].control[0]'],
    ['a control tensor named twice', seq({ controlInputs: [
      { name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1] }] },
      { name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_END', int32FalseTrue: [0, 1] }] }] }),
    'sequence_batching.control_input[1].name', "'START' is already control_input[0]"],
    ['response cache with sequence batching', { ...sequence, responseCache: true }, 'response_cache', 'does not support sequence batching'],
    // scheduler choice
    ['dynamic and sequence batching together', { ...sequence, dynamicBatching: {} }, 'sequence_batching', 'a model has one scheduler'],
    ['dynamic batching on an ensemble', { ...ensemble, dynamicBatching: {} }, 'dynamic_batching', 'an ensemble schedules its steps itself', known],
    // inputs and outputs
    ['two inputs with one name', { ...resnet, inputs: [...resnet.inputs!, { name: 'input', dataType: 'FP32', dims: [1] }] }, 'input[1].name', "'input' is already the name of input[0]"],
    ['two outputs with one name', { ...resnet, outputs: [...resnet.outputs!, { name: 'output', dataType: 'FP32', dims: [1] }] }, 'output[1].name', "'output' is already the name of output[0]"],
    ['an unnamed input', { ...resnet, inputs: [{ ...resnet.inputs![0], name: '' }] }, 'input[0].name', 'is empty'],
    ['an unknown data type', { ...resnet, inputs: [{ ...resnet.inputs![0], dataType: 'FLOAT' as never }] }, 'input[0].data_type',
      "'FLOAT' (input 'input') is not a Triton data type; use one of BOOL, UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64, FP16, FP32, FP64, STRING, BYTES, BF16"],
    ['an unknown warmup data type', withWarmup({ inputs: { input: { dataType: 'TYPE_FP32' as never, dims: [3, 224, 224] } } }),
      'model_warmup[0].inputs["input"].data_type', "'TYPE_FP32' (warmup 'w' input 'input') is not a Triton data type; use one of BOOL,"],
    ['an output without dims', { ...resnet, outputs: [{ name: 'output', dataType: 'FP32', dims: [] }] }, 'output[0].dims', 'is empty'],
    ['a zero dimension', { ...resnet, inputs: [{ ...resnet.inputs![0], dims: [3, 0, 224] }] }, 'input[0].dims[1]', '(0) must be a whole number >= 1, or -1'],
    ['a negative dimension other than -1', { ...resnet, outputs: [{ name: 'output', dataType: 'FP32', dims: [-2] }] }, 'output[0].dims[0]', '(-2) must be a whole number >= 1, or -1'],
    ['a reshape that changes the element count', { ...resnet, outputs: [{ name: 'output', dataType: 'FP32', dims: [1000], reshape: [10, 10] }] },
      'output[0].reshape', 'reshape [10, 10] holds 100 elements but dims [1000] hold 1000'],
    ['a reshape with -1 on one side only', { ...resnet, outputs: [{ name: 'output', dataType: 'FP32', dims: [-1], reshape: [1000] }] },
      'output[0].reshape', 'only one of dims [-1] and reshape [1000] has a variable-size dimension'],
    ['a reshape whose fixed runs differ', { ...resnet, outputs: [{ name: 'output', dataType: 'FP32', dims: [2, 4, -1, 6], reshape: [8, -1, 2, 6] }] },
      'output[0].reshape', 'different numbers of elements between their variable-size dimensions'],
    ['a scalar reshape on a non-batching model', { ...preprocess, maxBatchSize: 0, dynamicBatching: undefined, inputs: [{ name: 'RAW', dataType: 'UINT8', dims: [1], reshape: [] }] },
      'input[0].reshape', 'is [] (a scalar), which Triton supports only for batching models'],
    ['a scalar reshape of more than one element', { ...preprocess, inputs: [{ name: 'RAW', dataType: 'UINT8', dims: [2], reshape: [] }] },
      'input[0].reshape', 'reshape [] holds 1 element but dims [2] hold 2'],
    ['a zero in reshape', { ...resnet, outputs: [{ name: 'output', dataType: 'FP32', dims: [1000], reshape: [0] }] }, 'output[0].reshape.shape[0]', '(0) must be a whole number >= 1'],
    ['NCHW with two dims', { ...resnet, inputs: [{ ...resnet.inputs![0], dims: [224, 224] }] }, 'input[0].format', 'FORMAT_NCHW needs exactly 3 dims'],
    // instance groups
    ['instance count 0', { ...resnet, instanceGroups: [{ count: 0, kind: 'KIND_GPU' }] }, 'instance_group[0].count', '(0) must be a whole number >= 1'],
    ['a CPU group listing GPUs', { ...resnet, instanceGroups: [{ kind: 'KIND_CPU', gpus: [0] }] }, 'instance_group[0].gpus', 'the kind is KIND_CPU'],
    ['a KIND_MODEL group listing GPUs', { ...resnet, instanceGroups: [{ kind: 'KIND_MODEL', gpus: [0] }] }, 'instance_group[0].gpus', 'the kind is KIND_MODEL'],
    ['a negative GPU id', { ...resnet, instanceGroups: [{ kind: 'KIND_GPU', gpus: [-1] }] }, 'instance_group[0].gpus[0]', '(-1) must be a GPU index'],
    ['a GPU id the pod does not have', { ...resnet, instanceGroups: [{ kind: 'KIND_GPU', gpus: [0, 2] }] }, 'instance_group[0].gpus[1]',
      '(2) does not exist: the pod only has 2 GPUs (ids 0..1)', { gpuCount: 2 }],
    ['KIND_GPU on a pod without GPUs', resnet, 'instance_group[0].kind', 'is KIND_GPU but the pod has no GPUs', { gpuCount: 0 }],
    ['instance groups on an ensemble', { ...ensemble, instanceGroups: [{ kind: 'KIND_CPU' }] }, 'instance_group', 'is set on an ensemble', known],
    // version policy
    ['latest 0 versions', { ...resnet, versionPolicy: VersionPolicy.latest(0) }, 'version_policy.latest.num_versions', '(0) must be a whole number >= 1'],
    ['no specific versions', { ...resnet, versionPolicy: VersionPolicy.specific() }, 'version_policy.specific.versions', 'is empty, so no version would load'],
    ['version 0', { ...resnet, versionPolicy: VersionPolicy.specific(1, 0) }, 'version_policy.specific.versions[1]', '(0) is not a model version'],
    // ensembles
    ["platform 'ensemble' without steps", { ...ensemble, ensembleScheduling: undefined }, 'ensemble_scheduling', "is missing but platform is 'ensemble'", known],
    ["ensemble scheduling without platform 'ensemble'", { ...ensemble, platform: undefined }, 'platform', "(unset) must be 'ensemble'", known],
    ['an ensemble without steps', steps(), 'ensemble_scheduling.step', 'is empty', known],
    ['a step with an empty input map', { ...steps(pre, classify, { modelName: 'resnet50', inputMap: {}, outputMap: { output: 'EXTRA' } }),
      outputs: [...ensemble.outputs!, { name: 'EXTRA', dataType: 'FP32', dims: [1000] }] },
    'ensemble_scheduling.step[2].input_map', 'is empty', known],
    ['a step with an empty output map', steps(pre, classify, { modelName: 'resnet50', inputMap: { input: 'image' }, outputMap: {} }),
      'ensemble_scheduling.step[2].output_map', 'is empty', known],
    ['two steps writing one tensor', steps(pre, classify, { ...classify, modelName: 'resnet50' }),
      'ensemble_scheduling.step[2].output_map["output"]', "writes 'PROBS', which step[1] 'resnet50' already writes", known],
    ['a step writing an ensemble input', steps({ ...pre, outputMap: { IMAGE: 'image', EXTRA: 'RAW' } }, classify),
      'ensemble_scheduling.step[0].output_map["EXTRA"]', "writes 'RAW', which is an ensemble input", known],
    ['an ensemble input no step reads', { ...ensemble, inputs: [...ensemble.inputs!, { name: 'UNUSED', dataType: 'FP32', dims: [1] }] },
      'input[1]', "'UNUSED' is read by no step", known],
    ['an ensemble output no step writes', { ...ensemble, outputs: [...ensemble.outputs!, { name: 'LABELS', dataType: 'STRING', dims: [1] }] },
      'output[1]', "'LABELS' is written by no step", known],
    ['a step reading a tensor nobody writes', steps(pre, { ...classify, inputMap: { input: 'image', mask: 'imgae' } }),
      'ensemble_scheduling.step[1].input_map["mask"]', "step[1] 'resnet50' reads tensor 'imgae', which is neither an ensemble input nor written by any step", known],
    ['a step output nobody reads', steps({ ...pre, outputMap: { IMAGE: 'image', SIZE: 'size' } }, classify),
      'ensemble_scheduling.step[0].output_map["SIZE"]', "writes 'size', which no step reads and is not an ensemble output", known],
    ['steps in a cycle', steps(
      { modelName: 'preprocess', inputMap: { RAW: 'RAW', FEEDBACK: 'scores' }, outputMap: { IMAGE: 'image' } },
      { modelName: 'resnet50', inputMap: { input: 'image' }, outputMap: { output: 'scores', probs: 'PROBS' } }),
    'ensemble_scheduling.step[0]', "is in a cycle: step[0] 'preprocess' -(image)-> step[1] 'resnet50' -(scores)-> step[0] 'preprocess'", known],
    ['a step reading its own output', steps(pre, { ...classify, inputMap: { input: 'image', state: 'PROBS' } }),
      'ensemble_scheduling.step[1]', "is in a cycle: step[1] 'resnet50' -(PROBS)-> step[1] 'resnet50'", known],
    ['a step naming an unknown model', steps(pre, { ...classify, modelName: 'resnet' }), 'ensemble_scheduling.step[1].model_name',
      "'resnet' is not a model of this server (known: preprocess, resnet50)", known],
    ['a step naming the ensemble itself', steps(pre, { ...classify, modelName: 'classify' }), 'ensemble_scheduling.step[1].model_name',
      "names the ensemble 'classify' itself", known],
    ['a step with model version 0', steps(pre, { ...classify, modelVersion: 0 }), 'ensemble_scheduling.step[1].model_version', '(0) must be -1 (latest)', known],
    ['optimization on an ensemble', { ...ensemble, optimization: {} }, 'optimization', 'is set on an ensemble', known],
    ['warmup on an ensemble', { ...ensemble, modelWarmup: [{ name: 'w', inputs: { RAW: { dataType: 'UINT8', dims: [4] } } }] }, 'model_warmup', 'is set on an ensemble', known],
    // warmup
    ['a warmup batch above max_batch_size', withWarmup({ batchSize: 64 }), 'model_warmup[0].batch_size', '(64) exceeds max_batch_size (32)'],
    ['a warmup batch of 0', withWarmup({ batchSize: 0 }), 'model_warmup[0].batch_size', '(0) must be a whole number >= 1'],
    ['a warmup batch above 1 on a non-batching model', { ...withWarmup({ batchSize: 2 }), maxBatchSize: 0, dynamicBatching: undefined },
      'model_warmup[0].batch_size', '(2) must be 1 for a model that does not batch'],
    ['a warmup count of 0', withWarmup({ count: 0 }), 'model_warmup[0].count', '(0) must be a whole number >= 1'],
    ['a warmup sample without inputs', withWarmup({ inputs: {} }), 'model_warmup[0].inputs', 'is empty'],
    ['a warmup input the model lacks', withWarmup({ inputs: { input: { dataType: 'FP32', dims: [3, 224, 224] }, image: { dataType: 'FP32', dims: [1] } } }),
      'model_warmup[0].inputs["image"]', "'image' is not an input of the model (inputs: input)"],
    ['a warmup sample missing an input', { ...withWarmup({}), inputs: [...resnet.inputs!, { name: 'scale', dataType: 'FP32', dims: [1] }] },
      'model_warmup[0].inputs', "has no sample for input 'scale'"],
    ['a variable warmup dimension', { ...withWarmup({ inputs: { input: { dataType: 'FP32', dims: [-1] } } }), inputs: [{ name: 'input', dataType: 'FP32', dims: [-1] }] },
      'model_warmup[0].inputs["input"].dims[0]', '(-1) must be a fixed size >= 1'],
    ['a warmup data type unlike the input', withWarmup({ inputs: { input: { dataType: 'FP16', dims: [3, 224, 224] } } }),
      'model_warmup[0].inputs["input"].data_type', "(FP16) differs from input 'input' (FP32)"],
    ['warmup dims that do not fit the input', withWarmup({ inputs: { input: { dataType: 'FP32', dims: [3, 224] } } }),
      'model_warmup[0].inputs["input"].dims', "[3, 224] does not fit input 'input' dims [3, 224, 224]"],
    // the rest
    ['response cache on a decoupled model', { ...preprocess, decoupled: true, responseCache: true }, 'response_cache', 'does not support decoupled models'],
    ['a parameter without a key', { ...preprocess, parameters: { '': 'x' } }, 'parameters[""]', 'has an empty key'],
    ['an accelerator without a name', { ...resnet, optimization: { gpuExecutionAccelerators: [{ name: '' }] } },
      'optimization.execution_accelerators.gpu_execution_accelerator[0].name', 'is empty'],
  ];
  // Rows without a context get {}: jest would take a missing fifth argument for a `done` callback.
  test.each(rules.map(([rule, config, field, message, context]) => [rule, config, field, message, context ?? {}] as const))(
    'reports %s', (_rule, config, field, message, context) => {
    const found = errors(validateModelConfig(config, context));
    expect(found).toEqual([expect.objectContaining({ severity: 'error', model: config.name, field, message: expect.stringContaining(message) })]);
  });

  test('every message says what is wrong, then how to fix it', () => {
    const messages = rules.flatMap(([, config, , , context]) => validateModelConfig(config, context ?? {}).map((p) => p.message));
    expect(messages.length).toBeGreaterThanOrEqual(rules.length);
    for (const m of messages) expect(m).toMatch(/; \S/);
  });

  test('reports several problems together, in config order', () => {
    const config: ModelConfig = {
      ...resnet,
      maxBatchSize: 8,
      inputs: [{ name: 'input', dataType: 'FP32', dims: [3, -7, 224], format: 'FORMAT_NCHW' }],
      instanceGroups: [{ kind: 'KIND_GPU', gpus: [0, 4] }],
    };
    expect(errors(validateModelConfig(config, { gpuCount: 4 })).map((p) => p.field)).toEqual([
      'input[0].dims[1]',
      'dynamic_batching.preferred_batch_size[2]',
      'dynamic_batching.preferred_batch_size[3]',
      'instance_group[0].gpus[1]',
    ]);
  });

  test('warns when max_batch_size is set but nothing batches, with the fix', () => {
    const problems = validateModelConfig({ ...resnet, dynamicBatching: undefined });
    expect(problems).toEqual([{
      severity: 'warning', model: 'resnet50', field: 'max_batch_size',
      message: 'is 32 but neither dynamic nor sequence batching is set, so requests will not be batched; ' +
        'add dynamicBatching (e.g. { preferredBatchSizes: [32], maxQueueDelayMicroseconds: 100 })',
    }]);
  });

  test.each([
    ['a non-batching model', { ...resnet, maxBatchSize: 0, dynamicBatching: undefined }],
    ['a sequence model', sequence],
    ['an ensemble', ensemble],
  ])('does not warn about batching for %s', (_what, config) => {
    expect(validateModelConfig(config, known).filter((p) => p.severity === 'warning')).toEqual([]);
  });

  test('skips GPU availability checks when the GPU count is unknown', () => {
    expect(validateModelConfig({ ...resnet, instanceGroups: [{ kind: 'KIND_GPU', gpus: [7] }] })).toEqual([]);
  });
});

describe('validateModelSet', () => {
  test('accepts a consistent set', () => {
    expect(validateModelSet([preprocess, resnet, ensemble], { gpuCount: 1 })).toEqual([]);
  });

  test('reports a name used twice', () => {
    expect(validateModelSet([resnet, preprocess, resnet])).toEqual([
      expect.objectContaining({ severity: 'error', model: 'resnet50', field: 'name', message: expect.stringContaining('is used by models 0 and 2 of the set') }),
    ]);
  });

  test('reports steps naming models outside the set', () => {
    expect(errors(validateModelSet([resnet, ensemble]))).toEqual([
      expect.objectContaining({ model: 'classify', field: 'ensemble_scheduling.step[0].model_name', message: expect.stringContaining("'preprocess' is not a model of this server") }),
    ]);
  });

  test('passes the GPU count to every model', () => {
    expect(errors(validateModelSet([resnet, preprocess], { gpuCount: 0 })).map((p) => `${p.model} ${p.field}`))
      .toEqual(['resnet50 instance_group[0].kind']);
  });

  test.each<[string, ModelConfig[], string, string]>([
    ['a map key that is not an input of the step model', [preprocess, resnet, steps(pre, { ...classify, inputMap: { input: 'image', image: 'image' } })],
      'ensemble_scheduling.step[1].input_map["image"]', "'image' is not an input of model 'resnet50' (its inputs: input)"],
    ['an input of the step model left unmapped', [{ ...preprocess, inputs: [...preprocess.inputs!, { name: 'SIZE', dataType: 'INT32', dims: [2] }] }, resnet, ensemble],
      'ensemble_scheduling.step[0].input_map', "does not map input 'SIZE' of model 'preprocess'"],
    ['a map key that is not an output of the step model', [preprocess, resnet, steps(pre, { ...classify, outputMap: { logits: 'PROBS' } })],
      'ensemble_scheduling.step[1].output_map["logits"]', "'logits' is not an output of model 'resnet50' (its outputs: output)"],
    ['an ensemble batching more than a step model', [{ ...preprocess, maxBatchSize: 8, dynamicBatching: {} }, resnet, ensemble],
      'max_batch_size', "(32) exceeds the max_batch_size (8) of 'preprocess' in ensemble_scheduling.step[0]"],
    ['one tensor with two data types', [{ ...preprocess, outputs: [{ name: 'IMAGE', dataType: 'FP16', dims: [3, 224, 224] }] }, resnet, ensemble],
      'ensemble_scheduling.step[1].input_map["input"]', "tensor 'image' is FP32 for input 'input' of 'resnet50' but FP16 for output 'IMAGE' of 'preprocess'"],
    ['one tensor with two data types, BYTES being STRING', [{ ...preprocess, outputs: [{ name: 'IMAGE', dataType: 'BYTES', dims: [3, 224, 224] }] }, resnet, ensemble],
      'ensemble_scheduling.step[1].input_map["input"]', "tensor 'image' is FP32 for input 'input' of 'resnet50' but BYTES for output 'IMAGE' of 'preprocess'"],
    ['one tensor with two shapes', [{ ...preprocess, outputs: [{ name: 'IMAGE', dataType: 'FP32', dims: [3, 256, 256] }] }, resnet, ensemble],
      'ensemble_scheduling.step[1].input_map["input"]', "tensor 'image' has shape [3, 224, 224] for input 'input' of 'resnet50' but [3, 256, 256]"],
  ])('checks ensembles against their step models: %s', (_rule, models, field, message) => {
    expect(errors(validateModelSet(models))).toEqual([
      expect.objectContaining({ model: 'classify', field, message: expect.stringContaining(message) }),
    ]);
  });

  test('accepts an ensemble tensor that is BYTES for one model and STRING for the other (one type, two names)', () => {
    const text: ModelConfig = { ...preprocess, inputs: [{ name: 'RAW', dataType: 'STRING', dims: [-1] }] };
    expect(validateModelSet([text, resnet, { ...ensemble, inputs: [{ name: 'RAW', dataType: 'BYTES', dims: [-1] }] }])).toEqual([]);
  });

  test('accepts a non-batching step model whose shape carries the batch dimension', () => {
    const unbatched: ModelConfig = { ...resnet, maxBatchSize: 0, dynamicBatching: undefined, inputs: [{ name: 'input', dataType: 'FP32', dims: [-1, 3, 224, 224] }], outputs: [{ name: 'output', dataType: 'FP32', dims: [-1, 1000] }] };
    expect(validateModelSet([preprocess, unbatched, { ...ensemble, maxBatchSize: 32 }])).toEqual([]);
  });
});

describe('ModelConfigError', () => {
  const problems: ModelConfigProblem[] = [
    { severity: 'error', model: 'resnet50', field: 'input[0].dims[1]', message: '(0) must be a whole number >= 1, or -1' },
    { severity: 'warning', model: 'resnet50', field: 'max_batch_size', message: 'is 8 but nothing batches' },
    { severity: 'error', model: 'classify', field: 'ensemble_scheduling.step', message: 'is empty; add a step' },
  ];

  test('lists every error, one line each, prefixed by the construct path', () => {
    const error = new ModelConfigError(problems, 'Fleet/server');
    expect(error).toBeInstanceOf(TritonOpsError);
    expect(error.message).toBe([
      '2 problems:',
      "- Fleet/server: model 'resnet50' input[0].dims[1]: (0) must be a whole number >= 1, or -1",
      "- Fleet/server: model 'classify' ensemble_scheduling.step: is empty; add a step",
    ].join('\n'));
    expect(error.modelProblems).toEqual(problems);
    expect(error.problems).toEqual(error.message.split('\n').slice(1).map((line) => line.slice(2)));
  });

  test('a single error is the message itself', () => {
    expect(new ModelConfigError([problems[2]]).message).toBe("model 'classify' ensemble_scheduling.step: is empty; add a step");
  });

  test('throwIfErrors throws for errors only', () => {
    expect(() => ModelConfigError.throwIfErrors([problems[1]])).not.toThrow();
    expect(() => ModelConfigError.throwIfErrors(problems, 'Fleet')).toThrow(ModelConfigError);
  });

  test('formatProblem marks warnings', () => {
    expect(formatProblem(problems[0])).toBe("model 'resnet50' input[0].dims[1]: (0) must be a whole number >= 1, or -1");
    expect(formatProblem(problems[1])).toBe("warning: model 'resnet50' max_batch_size: is 8 but nothing batches");
  });
});
