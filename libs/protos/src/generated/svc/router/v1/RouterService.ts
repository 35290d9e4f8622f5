// Original file: protos/svc/router/v1/router_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { RouteRequest as _svc_router_v1_RouteRequest, RouteRequest__Output as _svc_router_v1_RouteRequest__Output } from '../../../svc/router/v1/RouteRequest';
import type { RouteResponse as _svc_router_v1_RouteResponse, RouteResponse__Output as _svc_router_v1_RouteResponse__Output } from '../../../svc/router/v1/RouteResponse';

/**
 * RouterService picks the model (and fallbacks) for one request. For a named model it checks
 * model access and lists the fallback set; for a virtual id (auto, auto/cheap, auto/balanced,
 * auto/best) it classifies the job and applies the line's skill floor.
 */
export interface RouterServiceClient extends grpc.Client {
  Route(argument: _svc_router_v1_RouteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  Route(argument: _svc_router_v1_RouteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  Route(argument: _svc_router_v1_RouteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  Route(argument: _svc_router_v1_RouteRequest, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  route(argument: _svc_router_v1_RouteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  route(argument: _svc_router_v1_RouteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  route(argument: _svc_router_v1_RouteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  route(argument: _svc_router_v1_RouteRequest, callback: grpc.requestCallback<_svc_router_v1_RouteResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * RouterService picks the model (and fallbacks) for one request. For a named model it checks
 * model access and lists the fallback set; for a virtual id (auto, auto/cheap, auto/balanced,
 * auto/best) it classifies the job and applies the line's skill floor.
 */
export interface RouterServiceHandlers extends grpc.UntypedServiceImplementation {
  Route: grpc.handleUnaryCall<_svc_router_v1_RouteRequest__Output, _svc_router_v1_RouteResponse>;
  
}

export interface RouterServiceDefinition extends grpc.ServiceDefinition {
  Route: MethodDefinition<_svc_router_v1_RouteRequest, _svc_router_v1_RouteResponse, _svc_router_v1_RouteRequest__Output, _svc_router_v1_RouteResponse__Output>
}
