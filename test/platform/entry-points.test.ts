/**
 * What each entry point loads: a YAML-only user of 'triton-ops' never loads cdktf or a provider package, and the AWS
 * side ('triton-ops/aws', with the fleet description and its infra stack) never loads cdk8s. A module that is not
 * allowed is replaced by one that throws, so an import added anywhere below the entry point fails this test.
 */
const forbidden: string[] = [];
const forbid = (modules: string[]) => {
  for (const name of modules) {
    forbidden.push(name);
    jest.doMock(name, () => { throw new Error(`${name} was loaded`); });
  }
};

describe('entry points load only their side', () => {
  afterEach(() => {
    for (const name of forbidden.splice(0)) jest.dontMock(name);
    jest.resetModules();
  });

  test("'triton-ops' with a whole fleet chart loads no cdktf and no provider", () => {
    jest.isolateModules(() => {
      forbid(['cdktf', '@cdktf/provider-aws/lib/provider', '@cdktf/provider-kubernetes/lib/provider', '@cdktf/provider-kubernetes/lib/manifest']);
      const { App } = require('cdk8s');
      const { FleetChart } = require('../../lib');
      const { VISION_FLEET } = require('../../examples/vision-fleet');
      expect(() => new FleetChart(new App(), 'vision', { fleet: VISION_FLEET })).not.toThrow();
    });
  });

  test("'triton-ops/fleet' with both example descriptions loads neither cdk8s nor cdktf", () => {
    jest.isolateModules(() => {
      forbid(['cdk8s', 'cdk8s-plus-28', 'cdktf']);
      const { planFleet } = require('../../lib/fleet/index');
      const { VISION_FLEET } = require('../../examples/vision-fleet');
      expect(Object.keys(planFleet(VISION_FLEET).servers)).toEqual(['classifier-v1', 'classifier-v2', 'segmenter']);
    });
  });

  test("'triton-ops/aws' with the default fleet's infra stack loads no cdk8s", () => {
    jest.isolateModules(() => {
      forbid(['cdk8s', 'cdk8s-plus-28']);
      const { App } = require('cdktf');
      const { FleetInfraStack } = require('../../lib/entries/aws');
      const { DEFAULT_FLEET } = require('../../stacks/fleet');
      expect(() => new FleetInfraStack(new App(), 'infra', { fleet: DEFAULT_FLEET })).not.toThrow();
    });
  });

  test('the guard itself: a forbidden module fails the load', () => {
    jest.isolateModules(() => {
      forbid(['cdk8s']);
      expect(() => require('../../lib')).toThrow('cdk8s was loaded');
    });
  });
});
