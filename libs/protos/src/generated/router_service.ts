import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Candidate as _svc_router_v1_Candidate, Candidate__Output as _svc_router_v1_Candidate__Output } from './svc/router/v1/Candidate';
import type { ModelAccess as _svc_router_v1_ModelAccess, ModelAccess__Output as _svc_router_v1_ModelAccess__Output } from './svc/router/v1/ModelAccess';
import type { Needs as _svc_router_v1_Needs, Needs__Output as _svc_router_v1_Needs__Output } from './svc/router/v1/Needs';
import type { RouteMessage as _svc_router_v1_RouteMessage, RouteMessage__Output as _svc_router_v1_RouteMessage__Output } from './svc/router/v1/RouteMessage';
import type { RouteRequest as _svc_router_v1_RouteRequest, RouteRequest__Output as _svc_router_v1_RouteRequest__Output } from './svc/router/v1/RouteRequest';
import type { RouteResponse as _svc_router_v1_RouteResponse, RouteResponse__Output as _svc_router_v1_RouteResponse__Output } from './svc/router/v1/RouteResponse';
import type { RouterServiceClient as _svc_router_v1_RouterServiceClient, RouterServiceDefinition as _svc_router_v1_RouterServiceDefinition } from './svc/router/v1/RouterService';
import type { Routing as _svc_router_v1_Routing, Routing__Output as _svc_router_v1_Routing__Output } from './svc/router/v1/Routing';
import type { Sticky as _svc_router_v1_Sticky, Sticky__Output as _svc_router_v1_Sticky__Output } from './svc/router/v1/Sticky';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  svc: {
    router: {
      v1: {
        Candidate: MessageTypeDefinition<_svc_router_v1_Candidate, _svc_router_v1_Candidate__Output>
        ModelAccess: MessageTypeDefinition<_svc_router_v1_ModelAccess, _svc_router_v1_ModelAccess__Output>
        Needs: MessageTypeDefinition<_svc_router_v1_Needs, _svc_router_v1_Needs__Output>
        RouteMessage: MessageTypeDefinition<_svc_router_v1_RouteMessage, _svc_router_v1_RouteMessage__Output>
        RouteRequest: MessageTypeDefinition<_svc_router_v1_RouteRequest, _svc_router_v1_RouteRequest__Output>
        RouteResponse: MessageTypeDefinition<_svc_router_v1_RouteResponse, _svc_router_v1_RouteResponse__Output>
        /**
         * RouterService picks the model (and fallbacks) for one request. For a named model it checks
         * model access and lists the fallback set; for a virtual id (auto, auto/cheap, auto/balanced,
         * auto/best) it classifies the job and applies the line's skill floor.
         */
        RouterService: SubtypeConstructor<typeof grpc.Client, _svc_router_v1_RouterServiceClient> & { service: _svc_router_v1_RouterServiceDefinition }
        Routing: MessageTypeDefinition<_svc_router_v1_Routing, _svc_router_v1_Routing__Output>
        Sticky: MessageTypeDefinition<_svc_router_v1_Sticky, _svc_router_v1_Sticky__Output>
      }
    }
  }
}

