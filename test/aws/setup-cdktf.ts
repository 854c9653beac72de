// Registers cdktf's jest matchers (toHaveResource, toHaveResourceWithProperties, ...) for the AWS tests.
import { Testing } from 'cdktf';
import { TerraformConstructor } from 'cdktf/lib/testing/matchers';

// cdktf declares its matchers on jest.Matchers<R>; @types/jest 30 has Matchers<R, T>, so they are declared again.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R, T> {
      toHaveResource(resourceConstructor: TerraformConstructor): R;
      toHaveResourceWithProperties(resourceConstructor: TerraformConstructor, properties: Record<string, unknown>): R;
      toHaveDataSource(dataSourceConstructor: TerraformConstructor): R;
      toHaveDataSourceWithProperties(dataSourceConstructor: TerraformConstructor, properties: Record<string, unknown>): R;
      toHaveProvider(providerConstructor: TerraformConstructor): R;
      toHaveProviderWithProperties(providerConstructor: TerraformConstructor, properties: Record<string, unknown>): R;
    }
  }
}

Testing.setupJest();
