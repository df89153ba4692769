// The `hrmock/proxy` entry: the recording, judging proxy in front of a deployment.
export {
  type ProxyReport,
  type ProxyViolation,
  type RunningProxy,
  type StartProxyOptions,
  startProxy,
} from './api/start-proxy.ts';
