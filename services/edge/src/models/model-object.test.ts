import { catalog } from '@svc/catalog';
import type { KeyRecord__Output } from '@svc/protos';
import { catalogModel, viewerFor, virtualModel } from './model-object';

const key = (fields: Partial<KeyRecord__Output>) => ({ plan: 'paid', stop_at_zero: false, free_allowance: true, ...fields }) as KeyRecord__Output;

describe('svc.availability (spec: Model object)', () => {
  const paidModel = catalog.chatModels.find((model) => !model.free)!;
  const freeModel = catalog.chatModels.find((model) => model.free)!;
  const availability = (viewer: ReturnType<typeof viewerFor>) => [virtualModel(catalog, 'auto', viewer), catalogModel(catalog, paidModel, viewer), catalogModel(catalog, freeModel, viewer)].map((model) => model.svc.availability);

  it('is absent for a paid organization with credit, or whose standing is not known yet', () => {
    expect(availability(viewerFor(catalog, key({}), { available: 1 }))).toEqual([undefined, undefined, undefined]);
    expect(availability(viewerFor(catalog, key({})))).toEqual([undefined, undefined, undefined]);
  });

  it('on the Free limits (the Free plan, or a paid organization at zero with the Free allowance): locked outside the free list', () => {
    expect(availability(viewerFor(catalog, key({ plan: 'free' })))).toEqual(['available', 'locked', 'available']);
    expect(availability(viewerFor(catalog, key({}), { available: 0 }))).toEqual(['available', 'locked', 'available']);
    // What calls in flight hold counts: a balance all held is none available.
    expect(availability(viewerFor(catalog, key({}), { available: -5 }))).toEqual(['available', 'locked', 'available']);
  });

  it('a paid organization at zero that stops at zero, or has no Free allowance, is not on the Free limits: all available', () => {
    expect(availability(viewerFor(catalog, key({ stop_at_zero: true }), { available: 0 }))).toEqual(['available', 'available', 'available']);
    expect(availability(viewerFor(catalog, key({ free_allowance: false }), { available: 0 }))).toEqual(['available', 'available', 'available']);
    // A Free-plan organization that is its person's second has no Free allowance: every call is 402, nothing is locked.
    expect(availability(viewerFor(catalog, key({ plan: 'free', free_allowance: false })))).toEqual(['available', 'available', 'available']);
  });
});
