export {
  type AddressPolicy,
  type AddressVerdict,
  createAddressPolicy,
  EGRESS_ALLOW_VARIABLE,
  parseAllowCidrs,
  parseIpLiteral,
} from "./address-policy.js";
export { type EgressProxy, type EgressProxyOptions, startEgressProxy } from "./egress-proxy.js";
export {
  createOutbound,
  findAddressRefusal,
  type Outbound,
  OutboundAddressRefused,
  type OutboundFetch,
  type OutboundOptions,
  type Resolver,
} from "./outbound.js";
