// Original file: protos/svc/router/v1/router_service.proto

import type { Candidate as _svc_router_v1_Candidate, Candidate__Output as _svc_router_v1_Candidate__Output } from '../../../svc/router/v1/Candidate';
import type { Routing as _svc_router_v1_Routing, Routing__Output as _svc_router_v1_Routing__Output } from '../../../svc/router/v1/Routing';

export interface RouteResponse {
  /**
   * Candidates in order: the pick first, then the fallbacks (at most 3 attempts are made).
   */
  'candidates'?: (_svc_router_v1_Candidate)[];
  'routing'?: (_svc_router_v1_Routing | null);
  /**
   * Reasoning setting chosen with the model (the level name), empty for the model default.
   */
  'effort'?: (string);
  /**
   * True when the request named a virtual id (the auto call fee applies).
   */
  'auto'?: (boolean);
  /**
   * On the Free plan under auto: the model a paid account would have been given, when it differs.
   */
  'paid_would_use'?: (string);
  /**
   * Under auto: the stronger models an escalation from the pick would use, in order (the cheapest
   * one floor step up and the next ones, or the next models up the curve); empty when no
   * stronger model exists.
   */
  'escalation'?: (_svc_router_v1_Candidate)[];
}

export interface RouteResponse__Output {
  /**
   * Candidates in order: the pick first, then the fallbacks (at most 3 attempts are made).
   */
  'candidates': (_svc_router_v1_Candidate__Output)[];
  'routing': (_svc_router_v1_Routing__Output | null);
  /**
   * Reasoning setting chosen with the model (the level name), empty for the model default.
   */
  'effort': (string);
  /**
   * True when the request named a virtual id (the auto call fee applies).
   */
  'auto': (boolean);
  /**
   * On the Free plan under auto: the model a paid account would have been given, when it differs.
   */
  'paid_would_use': (string);
  /**
   * Under auto: the stronger models an escalation from the pick would use, in order (the cheapest
   * one floor step up and the next ones, or the next models up the curve); empty when no
   * stronger model exists.
   */
  'escalation': (_svc_router_v1_Candidate__Output)[];
}
