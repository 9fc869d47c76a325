import { UserData } from 'aws-cdk-lib/aws-ec2';
import { gpuTelemetryCommands } from '../../shared/domain/gpu-telemetry-agent';

/** The launch template's user data: the GPU telemetry agent (shared/domain/gpu-telemetry-agent.ts). */
export function gpuTelemetryUserData(): UserData {
  const userData = UserData.forLinux();
  userData.addCommands(...gpuTelemetryCommands());
  return userData;
}
