import type { AddressInfo } from 'node:net';
import express from 'express';
import { catalog } from '@svc/catalog';
import { autoModelsDocument, autoModelsHandler } from './auto-models';

describe('GET /v1/public/auto-models', () => {
  it('is {object, as_of, models}: the skill data date and the auto-eligible catalog ids', () => {
    const document = autoModelsDocument(catalog);
    expect(Object.keys(document)).toEqual(['object', 'as_of', 'models']);
    expect(document.object).toBe('auto_models');
    expect(document.as_of).toBe(catalog.data.skills_as_of);
    expect(document.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(document.models).toEqual(catalog.autoEligibleIds());
    expect(document.models.length).toBeGreaterThan(0);
    for (const id of document.models) {
      expect(catalog.isAutoEligible(id)).toBe(true);
      expect(catalog.chatModel(id)?.named_only).toBe(false);
    }
    // Embedding models and named-only models are never on the list.
    for (const model of catalog.embeddingModels) expect(document.models).not.toContain(model.id);
    expect(document.models).not.toContain('vendor-8/decision-1.13.0');
  });

  it('answers with Cache-Control: public, max-age=600', async () => {
    const app = express().get('/v1/public/auto-models', autoModelsHandler(catalog));
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/public/auto-models`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=600');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(autoModelsDocument(catalog));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
