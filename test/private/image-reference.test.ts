import { checkImage } from '../../lib/private/image-reference';
import { Problems, TritonOpsError } from '../../lib/private/errors';

const DIGEST = 'sha256:' + 'a'.repeat(64);

function check(image: string): void {
  const problems = new Problems('Fleet/server');
  checkImage(problems, 'image', image);
  problems.throwIfAny();
}

describe('checkImage', () => {
  test.each([
    ['a version tag', 'nvcr.io/nvidia/tritonserver:24.08-py3'],
    ['a Docker Hub short name with a tag', 'busybox:1.36'],
    ['a registry port and a tag', 'localhost:5000/x:1.0'],
    ['a registry port, nested path and a tag', 'registry.example.com:8443/team/models/triton:2.1.0'],
    ['a digest', `nvcr.io/nvidia/k8s-device-plugin@${DIGEST}`],
    ['a registry port and a digest', `localhost:5000/x@${DIGEST}`],
    ['a tag and a digest (the digest pins)', `nvcr.io/nvidia/k8s-device-plugin:v0.19.3@${DIGEST}`],
    ['latest pinned by a digest', `busybox:latest@${DIGEST}`],
    ['an ECR image', '123456789012.dkr.ecr.us-west-2.amazonaws.com/triton:24.08-py3'],
  ])('accepts %s: %s', (_what, image) => {
    expect(() => check(image)).not.toThrow();
  });

  test.each([
    ['an untagged image', 'nvcr.io/nvidia/tritonserver',
      "Fleet/server: 'image' ('nvcr.io/nvidia/tritonserver') has no tag, so it means :latest and each node may pull a different build; "
      + "pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')"],
    ['an untagged image behind a registry port', 'localhost:5000/x',
      "Fleet/server: 'image' ('localhost:5000/x') has no tag, so it means :latest and each node may pull a different build; "
      + "pin a version tag ('localhost:5000/x:<version>') or a digest ('localhost:5000/x@sha256:<digest>')"],
    ['latest', 'nvcr.io/nvidia/tritonserver:latest',
      "Fleet/server: 'image' ('nvcr.io/nvidia/tritonserver:latest') uses the moving tag 'latest', so each node may pull a different build; "
      + "pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')"],
    ['latest behind a registry port', 'localhost:5000/x:latest',
      "Fleet/server: 'image' ('localhost:5000/x:latest') uses the moving tag 'latest', so each node may pull a different build; "
      + "pin a version tag ('localhost:5000/x:<version>') or a digest ('localhost:5000/x@sha256:<digest>')"],
  ])('fails for %s', (_what, image, message) => {
    expect(() => check(image)).toThrow(new TritonOpsError(message));
  });

  test.each([
    ['an empty string', ''],
    ['upper case in the repository', 'nvcr.io/NVIDIA/tritonserver:24.08-py3'],
    ['white space', 'nvcr.io/nvidia/tritonserver: 24.08'],
    ['a truncated digest', 'nvcr.io/nvidia/tritonserver@sha256:abc'],
    ['an empty tag', 'nvcr.io/nvidia/tritonserver:'],
  ])('fails for a malformed reference: %s', (_what, image) => {
    expect(() => check(image)).toThrow(new TritonOpsError(
      `Fleet/server: 'image' ('${image}') is not a valid image reference; `
      + "write it as 'registry/repository:tag' or 'registry/repository@sha256:<digest>', repository in lower case"));
  });
});
