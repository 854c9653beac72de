import { AWS_CLI_IMAGE, AWS_CLI_PIN, AWS_CLI_VERSION } from '../../../lib/triton/serving/aws-cli-image';
import { imageParts } from '../../../lib/private/image-reference';

// Facts of aws/aws-cli at the tag 2.36.7 (commit 73fb33bb171ace3e9eaa03308f76e5de50c21393, 2026-07-23), the newest 2.x
// release tag of the repository when pinned:
// - aws/aws-cli:awscli/__init__.py@2.36.7 line 23: `__version__ = '2.36.7'`, i.e. the tag is a release of the CLI;
// - aws/aws-cli:CHANGELOG.rst@2.36.7 line 5: the release notes open with `2.36.7`.
// The previous pin, 2.25.4, is also a tag of aws/aws-cli (checked with `git tag`), so no image pointed nowhere.
describe('AWS_CLI_IMAGE', () => {
  test('is AWS\'s ECR Public image with an explicit release tag, never latest (CHECKLIST I01)', () => {
    expect(AWS_CLI_IMAGE).toBe('public.ecr.aws/aws-cli/aws-cli:2.36.7');
    expect(imageParts(AWS_CLI_IMAGE)).toEqual({ name: 'public.ecr.aws/aws-cli/aws-cli', tag: AWS_CLI_VERSION });
    expect(AWS_CLI_VERSION).toMatch(/^2\.\d+\.\d+$/);
  });

  test('its pin names the release and where it was read', () => {
    expect(AWS_CLI_PIN).toEqual({
      component: 'aws-cli', kind: 'image', version: 'public.ecr.aws/aws-cli/aws-cli:2.36.7',
      source: "aws/aws-cli:awscli/__init__.py@2.36.7 line 23 (__version__ '2.36.7'); CHANGELOG.rst@2.36.7 line 5",
      // The tag 2.36.7 is of 2026-07-23; aws/aws-cli states no end of life for a release.
      lifecycle: {
        cycle: '2.36.7', released: '2026-07-23', basis: 'not-stated',
        source: 'aws/aws-cli tag 2.36.7 (2026-07-23); README.rst@2.36.7 (no support period stated for a release)',
      },
    });
  });
});
