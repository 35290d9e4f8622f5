import { catalog } from '@svc/catalog';
import { freeTierDocument } from './free-tier';

describe('free-tier document', () => {
  it('lists the free models and the Free plan limits, never the fair-use amount', () => {
    const document = freeTierDocument(catalog);
    expect(document.models).toEqual(catalog.freeModelIds());
    expect(document.models.length).toBeGreaterThan(0);
    expect(document.limits).toEqual({ requests_per_day: 100, requests_per_minute: 20, max_input_tokens: 16000, max_output_tokens: 2000, fair_use_daily_limit: true });
  });
});
