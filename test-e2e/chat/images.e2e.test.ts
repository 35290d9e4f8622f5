import { fleetState } from '../support/fleet-state';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('image parts (spec: images are downloaded by the service; private and internal addresses are refused)', () => {
  const state = fleetState();
  const visionModel = 'vendor-1/orion-5';
  const call = (url: string) =>
    fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}` },
      body: JSON.stringify({
        model: visionModel,
        messages: [
          { role: 'system', content: 'describe images' },
          { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url, detail: 'high' } }] },
        ],
      }),
    });

  it.each([
    ['loopback', 'http://127.0.0.1:8080/cat.png'],
    ['10/8', 'http://10.1.2.3/cat.png'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', 'http://[::1]/cat.png'],
    ['a DNS name resolving to loopback', 'http://localhost:8080/cat.png'],
    ['a decimal loopback form', 'http://2130706433/cat.png'],
    ['a non-http scheme', 'file:///etc/passwd'],
  ])('refuses %s with 400 invalid_image_url pointing at the part', async (_name, url) => {
    const response = await call(url);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: 'messages[1].content[1].image_url.url', code: 'invalid_image_url' },
    });
  });

  it('sends a data: image as bytes and answers', async () => {
    const response = await call(`data:image/png;base64,${PNG}`);
    expect(response.status).toBe(200);
    expect((await response.json()).object).toBe('chat.completion');
  });
});
