import { readFileSync } from 'fs';
import { join } from 'path';
import { VersionPolicy, type ModelConfig } from '../../../lib/triton/model-config/model-config';
import {
  DEFAULT_ENSEMBLE_MODEL_VERSION, DEFAULT_WARMUP_BATCH_SIZE, renderModelConfig,
} from '../../../lib/triton/model-config/render-model-config';
import { ModelConfigError } from '../../../lib/triton/model-config/validate-model-config';
import { DATA_TYPE_ALIASES } from '../../../lib/triton/model-config/model-config-enums';
import { messageOf } from '../../helpers';
import { describeCitedFacts } from '../cited-facts';
import { resnet } from '../fixtures';

const python = (extra: Partial<ModelConfig>): ModelConfig => ({ name: 'm', backend: 'python', ...extra });

/** The lines of a rendered config that start with `prefix` after their indentation, without it. */
const linesStarting = (text: string, prefix: string) =>
  text.split('\n').map((l) => l.trimStart()).filter((l) => l.startsWith(prefix));

describeCitedFacts("BYTES, Triton's API name for TYPE_STRING", [
  {
    fact: 'model_config.proto, the parser of config.pbtxt, names the type TYPE_STRING (13); it has no TYPE_BYTES',
    value: linesStarting(renderModelConfig(python({ inputs: [{ name: 't', dataType: 'BYTES', dims: [1] }] })), 'data_type:'),
    upstream: ['data_type: TYPE_STRING'],
    source: 'triton-inference-server/common:protobuf/model_config.proto@r26.07 line 73',
  },
  {
    fact: "the datatypes table gives TYPE_STRING the API name BYTES (C APIs, HTTP/REST and GRPC, Triton's clients)",
    value: DATA_TYPE_ALIASES, upstream: { BYTES: 'STRING' },
    source: 'triton-inference-server/server:docs/user_guide/model_configuration.md@r26.07 lines 326, 343',
  },
]);

describe('renderModelConfig', () => {
  test('renders an ONNX ResNet-50 classifier as Triton reads it', () => {
    expect(renderModelConfig(resnet)).toBe(`name: "resnet50"
platform: "onnxruntime_onnx"
max_batch_size: 32
input [
  {
    name: "input"
    data_type: TYPE_FP32
    format: FORMAT_NCHW
    dims: [ 3, 224, 224 ]
  }
]
output [
  {
    name: "output"
    data_type: TYPE_FP32
    dims: [ 1000 ]
  }
]
dynamic_batching {
  preferred_batch_size: [ 4, 8, 16, 32 ]
  max_queue_delay_microseconds: 500
}
instance_group [
  {
    kind: KIND_GPU
    count: 2
  }
]
`);
  });

  test('writes only the fields given', () => {
    expect(renderModelConfig(python({}))).toBe('name: "m"\nbackend: "python"\n');
  });

  test('writes explicit false and zero values instead of dropping them', () => {
    const text = renderModelConfig(python({ maxBatchSize: 0, responseCache: false, decoupled: false }));
    expect(text).toContain('max_batch_size: 0\n');
    expect(text).toContain('model_transaction_policy {\n  decoupled: false\n}\n');
    expect(text).toContain('response_cache {\n  enable: false\n}\n');
  });

  test.each([
    ['latest', VersionPolicy.latest(2), 'version_policy: { latest: { num_versions: 2 } }'],
    ['all', VersionPolicy.all(), 'version_policy: { all: { } }'],
    ['specific', VersionPolicy.specific(1, 2), 'version_policy: { specific: { versions: [ 1, 2 ] } }'],
  ])('renders the %s version policy', (_kind, versionPolicy, line) => {
    expect(linesStarting(renderModelConfig(python({ versionPolicy })), 'version_policy')).toEqual([line]);
  });

  describe('maps are sorted by key, whatever the object key order', () => {
    test('parameters', () => {
      const a = renderModelConfig(python({ parameters: { b: '2', a: '1', B: '3' } }));
      const b = renderModelConfig(python({ parameters: { a: '1', B: '3', b: '2' } }));
      expect(a).toBe(b);
      expect(linesStarting(a, 'parameters')).toEqual([
        'parameters { key: "B" value: { string_value: "3" } }',
        'parameters { key: "a" value: { string_value: "1" } }',
        'parameters { key: "b" value: { string_value: "2" } }',
      ]);
    });

    test('ensemble input_map and output_map', () => {
      const text = renderModelConfig({
        name: 'e', platform: 'ensemble',
        ensembleScheduling: { steps: [{ modelName: 'm', inputMap: { z: 'Z', a: 'A' }, outputMap: { y: 'Y', b: 'B' } }] },
      });
      expect(linesStarting(text, 'input_map')).toEqual([
        'input_map { key: "a" value: "A" }', 'input_map { key: "z" value: "Z" }',
      ]);
      expect(linesStarting(text, 'output_map')).toEqual([
        'output_map { key: "b" value: "B" }', 'output_map { key: "y" value: "Y" }',
      ]);
    });

    test('accelerator parameters', () => {
      const text = renderModelConfig(python({
        optimization: { gpuExecutionAccelerators: [{ name: 'tensorrt', parameters: { precision_mode: 'FP16', max_workspace_size_bytes: '1073741824' } }] },
      }));
      expect(text).toContain(`optimization {
  execution_accelerators {
    gpu_execution_accelerator [
      {
        name: "tensorrt"
        parameters { key: "max_workspace_size_bytes" value: "1073741824" }
        parameters { key: "precision_mode" value: "FP16" }
      }
    ]
  }
}
`);
    });

    test('warmup inputs', () => {
      const text = renderModelConfig(python({
        modelWarmup: [{ name: 'w', inputs: { z: { dataType: 'INT64', dims: [1] }, a: { dataType: 'FP32', dims: [2] } } }],
      }));
      expect(linesStarting(text, 'inputs').map((l) => l.slice(0, 'inputs { key: "a"'.length))).toEqual([
        'inputs { key: "a"', 'inputs { key: "z"',
      ]);
    });
  });

  test.each([
    ['a backslash', 'a\\b', '"a\\\\b"'],
    ['a double quote', 'say "hi"', '"say \\"hi\\""'],
    ['a newline', 'two\nlines', '"two\\nlines"'],
    ['a tab and a carriage return', 'a\tb\r', '"a\\tb\\r"'],
    ['another control character', 'bell\u0007', '"bell\\007"'],
    ['a single quote (left as is)', "it's", '"it\'s"'],
    ['non-ASCII text (kept as UTF-8)', 'modèle-日本', '"modèle-日本"'],
  ])('escapes %s in strings', (_what, value, quoted) => {
    const text = renderModelConfig(python({ parameters: { [value]: value } }));
    expect(linesStarting(text, 'parameters')).toEqual([`parameters { key: ${quoted} value: { string_value: ${quoted} } }`]);
    expect(text.split('\n')).toHaveLength(4); // name, backend, parameters, final newline: nothing leaked a raw newline
  });

  test('renders inputs and outputs with reshape, optional and labels', () => {
    const text = renderModelConfig(python({
      maxBatchSize: 4,
      inputs: [{ name: 'x', dataType: 'INT64', dims: [1], reshape: [], optional: true }],
      outputs: [{ name: 'y', dataType: 'FP32', dims: [-1, 4], reshape: [-1, 2, 2], labelFilename: 'labels.txt' }],
    }));
    expect(text).toContain(`input [
  {
    name: "x"
    data_type: TYPE_INT64
    dims: [ 1 ]
    reshape: { shape: [ ] }
    optional: true
  }
]
output [
  {
    name: "y"
    data_type: TYPE_FP32
    dims: [ -1, 4 ]
    reshape: { shape: [ -1, 2, 2 ] }
    label_filename: "labels.txt"
  }
]
`);
  });

  test('renders dynamic batching with priorities and the default queue policy', () => {
    const text = renderModelConfig(python({
      maxBatchSize: 8,
      dynamicBatching: {
        preferredBatchSizes: [8], preserveOrdering: true, priorityLevels: 2, defaultPriorityLevel: 1,
        defaultQueuePolicy: { timeoutAction: 'REJECT', defaultTimeoutMicroseconds: 1000, allowTimeoutOverride: true, maxQueueSize: 16 },
      },
    }));
    expect(text).toContain(`dynamic_batching {
  preferred_batch_size: [ 8 ]
  preserve_ordering: true
  priority_levels: 2
  default_priority_level: 1
  default_queue_policy {
    timeout_action: REJECT
    default_timeout_microseconds: 1000
    allow_timeout_override: true
    max_queue_size: 16
  }
}
`);
  });

  test('renders sequence batching with the oldest strategy and every control type', () => {
    const text = renderModelConfig(python({
      maxBatchSize: 8,
      sequenceBatching: {
        strategy: 'oldest', maxCandidateSequences: 4, maxQueueDelayMicroseconds: 100, maxSequenceIdleMicroseconds: 5000000,
        controlInputs: [
          { name: 'START', controls: [{ kind: 'CONTROL_SEQUENCE_START', int32FalseTrue: [0, 1] }] },
          { name: 'READY', controls: [{ kind: 'CONTROL_SEQUENCE_READY', fp32FalseTrue: [0, 0.5] }] },
          { name: 'END', controls: [{ kind: 'CONTROL_SEQUENCE_END', boolFalseTrue: [false, true] }] },
          { name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID', dataType: 'UINT64' }] },
        ],
      },
    }));
    expect(text).toContain(`sequence_batching {
  oldest {
    max_candidate_sequences: 4
    max_queue_delay_microseconds: 100
  }
  max_sequence_idle_microseconds: 5000000
  control_input [
    {
      name: "START"
      control [
        {
          kind: CONTROL_SEQUENCE_START
          int32_false_true: [ 0, 1 ]
        }
      ]
    },
    {
      name: "READY"
      control [
        {
          kind: CONTROL_SEQUENCE_READY
          fp32_false_true: [ 0, 0.5 ]
        }
      ]
    },
    {
      name: "END"
      control [
        {
          kind: CONTROL_SEQUENCE_END
          bool_false_true: [ false, true ]
        }
      ]
    },
    {
      name: "CORRID"
      control [
        {
          kind: CONTROL_SEQUENCE_CORRID
          data_type: TYPE_UINT64
        }
      ]
    }
  ]
}
`);
  });

  test.each([
    ['no strategy and no delay: Triton picks direct', {}, 'sequence_batching: { }'],
    ['the direct strategy, named', { strategy: 'direct' as const }, 'sequence_batching {\n  direct: { }\n}'],
    ['a delay without a strategy goes to direct', { maxQueueDelayMicroseconds: 10 },
      'sequence_batching {\n  direct {\n    max_queue_delay_microseconds: 10\n  }\n}'],
  ])('sequence batching strategy: %s', (_what, sequenceBatching, block) => {
    expect(renderModelConfig(python({ sequenceBatching }))).toBe(`name: "m"\nbackend: "python"\n${block}\n`);
  });

  test('renders ensemble steps, defaulting the model version to latest (-1)', () => {
    expect(DEFAULT_ENSEMBLE_MODEL_VERSION).toBe(-1);
    const text = renderModelConfig({
      name: 'pipeline', platform: 'ensemble',
      ensembleScheduling: {
        steps: [
          { modelName: 'pre', inputMap: { IN: 'RAW' }, outputMap: { OUT: 'image' } },
          { modelName: 'resnet50', modelVersion: 3, inputMap: { input: 'image' }, outputMap: { output: 'PROBS' } },
        ],
      },
    });
    expect(text).toBe(`name: "pipeline"
platform: "ensemble"
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IN" value: "RAW" }
      output_map { key: "OUT" value: "image" }
    },
    {
      model_name: "resnet50"
      model_version: 3
      input_map { key: "input" value: "image" }
      output_map { key: "output" value: "PROBS" }
    }
  ]
}
`);
  });

  test('renders warmup samples with batch size 1 and zero data unless told otherwise', () => {
    expect(DEFAULT_WARMUP_BATCH_SIZE).toBe(1);
    const text = renderModelConfig(python({
      modelWarmup: [
        { name: 'defaults', inputs: { x: { dataType: 'FP32', dims: [3] } } },
        { name: 'random', batchSize: 4, count: 2, inputs: { x: { dataType: 'FP32', dims: [3], data: 'random' } } },
      ],
    }));
    expect(text).toContain(`model_warmup [
  {
    name: "defaults"
    batch_size: 1
    inputs { key: "x" value: { data_type: TYPE_FP32 dims: [ 3 ] zero_data: true } }
  },
  {
    name: "random"
    batch_size: 4
    inputs { key: "x" value: { data_type: TYPE_FP32 dims: [ 3 ] random_data: true } }
    count: 2
  }
]
`);
  });

  describe("BYTES, Triton's API name for TYPE_STRING", () => {
    // proto/model_config.proto: the copy of common:protobuf/model_config.proto the package ships.
    const proto = readFileSync(join(__dirname, '..', '..', '..', 'proto', 'model_config.proto'), 'utf8');

    test('model_config.proto, which parses config.pbtxt, has TYPE_STRING and no TYPE_BYTES', () => {
      expect(proto).toMatch(/^\s*TYPE_STRING = 13;$/m);
      expect(proto).not.toContain('TYPE_BYTES');
    });

    test('is written TYPE_STRING wherever a data type is: inputs, outputs, a correlation id, a warmup sample', () => {
      const text = renderModelConfig(python({
        inputs: [{ name: 'text', dataType: 'BYTES', dims: [1] }],
        outputs: [{ name: 'tokens', dataType: 'BYTES', dims: [-1] }],
        sequenceBatching: { controlInputs: [{ name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID', dataType: 'BYTES' }] }] },
        modelWarmup: [{ name: 'w', inputs: { text: { dataType: 'BYTES', dims: [1] } } }],
      }));
      expect(text.match(/data_type: \w+/g)).toEqual(Array(4).fill('data_type: TYPE_STRING'));
      expect(text).toBe(renderModelConfig(python({
        inputs: [{ name: 'text', dataType: 'STRING', dims: [1] }],
        outputs: [{ name: 'tokens', dataType: 'STRING', dims: [-1] }],
        sequenceBatching: { controlInputs: [{ name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID', dataType: 'STRING' }] }] },
        modelWarmup: [{ name: 'w', inputs: { text: { dataType: 'STRING', dims: [1] } } }],
      })));
    });
  });

  describe('refuses a data type that is none (a JavaScript caller) instead of writing TYPE_<value>', () => {
    const names = 'use one of BOOL, UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64, FP16, FP32, FP64, STRING, BYTES, BF16';
    test.each<[string, Partial<ModelConfig>, string]>([
      ['an input', { inputs: [{ name: 'ids', dataType: 'TEXT' as never, dims: [1] }] },
        `model 'm' input[0].data_type: 'TEXT' (input 'ids') is not a Triton data type; ${names}`],
      ['an output', { outputs: [{ name: 'out', dataType: 'float32' as never, dims: [1] }] },
        `model 'm' output[0].data_type: 'float32' (output 'out') is not a Triton data type; ${names}`],
      ['a correlation id', { sequenceBatching: { controlInputs: [{ name: 'CORRID', controls: [{ kind: 'CONTROL_SEQUENCE_CORRID', dataType: 'UINT128' as never }] }] } },
        `model 'm' sequence_batching.control_input[0].control[0].data_type: 'UINT128' (control input 'CORRID') is not a Triton data type; ${names}`],
      ['a warmup sample', { modelWarmup: [{ name: 'w', inputs: { x: { dataType: 'TYPE_FP32' as never, dims: [1] } } }] },
        `model 'm' model_warmup[0].inputs["x"].data_type: 'TYPE_FP32' (warmup 'w' input 'x') is not a Triton data type; ${names}`],
    ])('in %s', (_where, extra, message) => {
      expect(() => renderModelConfig(python(extra))).toThrow(ModelConfigError);
      expect(messageOf(() => renderModelConfig(python(extra)))).toBe(message);
    });

    test('every one at once', () => {
      const config = python({
        inputs: [{ name: 'a', dataType: 'TEXT' as never, dims: [1] }, { name: 'b', dataType: undefined as never, dims: [1] }],
      });
      expect(messageOf(() => renderModelConfig(config))).toBe('2 problems:\n'
        + `- model 'm' input[0].data_type: 'TEXT' (input 'a') is not a Triton data type; ${names}\n`
        + `- model 'm' input[1].data_type: 'undefined' (input 'b') is not a Triton data type; ${names}`);
    });
  });

  test('renders instance groups with GPU ids, CPU accelerators and the response cache', () => {
    const text = renderModelConfig(python({
      instanceGroups: [{ kind: 'KIND_GPU', count: 1, gpus: [0, 1] }, { kind: 'KIND_CPU' }],
      optimization: { cpuExecutionAccelerators: [{ name: 'openvino' }] },
      responseCache: true,
      decoupled: true,
    }));
    expect(text).toContain('instance_group [\n  {\n    kind: KIND_GPU\n    count: 1\n    gpus: [ 0, 1 ]\n  },\n  {\n    kind: KIND_CPU\n  }\n]\n');
    expect(text).toContain('cpu_execution_accelerator [\n      {\n        name: "openvino"\n      }\n    ]\n');
    expect(text.endsWith('model_transaction_policy {\n  decoupled: true\n}\nresponse_cache {\n  enable: true\n}\n')).toBe(true);
  });

  test('puts fields in model_config.proto order, whatever the object key order', () => {
    const shuffled: ModelConfig = {
      instanceGroups: resnet.instanceGroups, dynamicBatching: resnet.dynamicBatching, outputs: resnet.outputs,
      inputs: resnet.inputs, maxBatchSize: 32, platform: 'onnxruntime_onnx', name: 'resnet50',
    };
    expect(renderModelConfig(shuffled)).toBe(renderModelConfig(resnet));
  });
});
