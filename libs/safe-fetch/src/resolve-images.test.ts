import { resolveImages, type ImageRequest, type RequestImage } from './resolve-images';
import { JPEG, NOT_ALLOWED, PNG, PNG_HEADER, REDIRECT_NOT_ALLOWED, failure, fetcher, origin, seen, useImageServers } from './image-servers.test-support';

useImageServers();

/**
 * The requests below are what the chat request parser makes of a client's messages (see ChatImage
 * in @svc/call): system texts leave `messages`, a data: image is decoded into its user message's
 * parts, an http(s) image is listed with `decoded: false` and left out of the parts.
 */
const remote = (url: string, messageIndex: number, partIndex: number, vendorMessageIndex: number): RequestImage => ({
  url,
  param: `messages[${messageIndex}].content[${partIndex}].image_url.url`,
  decoded: false,
  vendorMessageIndex,
  partIndex,
});
const inline = (url: string, messageIndex: number, partIndex: number, vendorMessageIndex: number): RequestImage => ({ ...remote(url, messageIndex, partIndex, vendorMessageIndex), decoded: true });
/** One user message whose parts are all http(s) images: `messages: [{role: 'user', content: urls.map(image)}]`. */
const onlyRemote = (urls: string[]): ImageRequest => ({ messages: [{ role: 'user', content: [] }], images: urls.map((url, index) => remote(url, 0, index, 0)), needsVision: true });

describe('resolveImages', () => {
  const dataPng = Buffer.concat([PNG_HEADER, Buffer.from('inline')]);
  const dataUrl = `data:image/png;base64,${dataPng.toString('base64')}`;

  it('downloads every deferred image and puts each part back in client order', async () => {
    // Client: system 'be brief'; user [text a, image cat.png, text b, image data:, image photo]; assistant 'ok'; user [image octet, text c].
    const input: ImageRequest = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'image', mediaType: 'image/png', data: dataPng }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'c' }] },
      ],
      images: [remote(`${origin.images}/cat.png`, 1, 1, 0), inline(dataUrl, 1, 3, 0), remote(`${origin.images}/photo`, 1, 4, 0), remote(`${origin.cdn}/octet`, 3, 0, 2)],
      needsVision: true,
    };
    expect(input.messages[0]).toMatchObject({ content: [{ type: 'text' }, { type: 'text' }, { type: 'image' }] });

    await fetcher().resolveImages(input);

    expect(input.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'text', text: 'b' },
        { type: 'image', mediaType: 'image/png', data: dataPng },
        { type: 'image', mediaType: 'image/jpeg', data: JPEG },
      ],
    });
    expect(input.messages[1]).toEqual({ role: 'assistant', content: 'ok' });
    expect(input.messages[2]).toEqual({ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: PNG }, { type: 'text', text: 'c' }] });
    expect(input.needsVision).toBe(true);
    expect(input.images.every((each) => each.decoded)).toBe(true);
  });

  it('does nothing the second time, and nothing without deferred images', async () => {
    const input = onlyRemote([`${origin.images}/cat.png`]);
    const images = fetcher();
    await images.resolveImages(input);
    await images.resolveImages(input);
    expect(input.messages[0]).toMatchObject({ content: [{ type: 'image' }] });
    expect(seen.requests).toHaveLength(1);

    const inlineOnly: ImageRequest = { messages: [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: dataPng }] }], images: [inline(dataUrl, 0, 0, 0)], needsVision: true };
    await images.resolveImages(inlineOnly);
    expect(inlineOnly.messages[0]).toEqual({ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: dataPng }] });
    expect(seen.requests).toHaveLength(1);
  });

  it('refuses with the param of the failing part and leaves the messages unchanged', async () => {
    // Client: system 'x'; user [text a, image cat.png, text b, image metadata].
    const input: ImageRequest = {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }],
      images: [remote(`${origin.images}/cat.png`, 1, 1, 0), remote('http://169.254.169.254/latest/meta-data/', 1, 3, 0)],
      needsVision: true,
    };
    const error = await failure(fetcher().resolveImages(input));
    expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, param: 'messages[1].content[3].image_url.url', message: NOT_ALLOWED });
    expect(input.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] });
    expect(input.images.some((each) => each.decoded)).toBe(false);
  });

  it('refuses a redirect to a private address with the param of that part', async () => {
    const input = onlyRemote([`${origin.images}/cat.png`, `${origin.cdn}/redirect?to=${encodeURIComponent('http://10.0.0.1/')}`]);
    const error = await failure(fetcher().resolveImages(input));
    expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, param: 'messages[0].content[1].image_url.url', message: REDIRECT_NOT_ALLOWED });
  });

  it('downloads at most `concurrency` images at a time (default 4)', async () => {
    const input = onlyRemote(Array.from({ length: 10 }, (_, i) => `${origin.images}/counted?i=${i}`));
    await fetcher().resolveImages(input);
    expect(seen.requests).toHaveLength(10);
    expect(seen.maxInFlight).toBe(4);
    expect(input.messages[0]).toMatchObject({ content: Array.from({ length: 10 }, () => ({ type: 'image', mediaType: 'image/png' })) });

    seen.maxInFlight = 0;
    await fetcher({ concurrency: 2 }).resolveImages(onlyRemote(Array.from({ length: 5 }, (_, i) => `${origin.images}/counted?i=${i}`)));
    expect(seen.maxInFlight).toBe(2);
  });

  it('refuses images too large together', async () => {
    const input = onlyRemote([`${origin.images}/cat.png?1`, `${origin.images}/cat.png?2`]);
    const error = await failure(fetcher({ maxTotalBytes: PNG.length + 10, concurrency: 1 }).resolveImages(input));
    expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, param: 'messages[0].content[1].image_url.url' });
    expect(error.message).toMatch(/^The images are too large together/);
  });

  it("stops the other downloads on the first failure, and passes the caller's abort through", async () => {
    const input = onlyRemote([`${origin.images}/slow-headers`, 'http://10.0.0.1/']);
    const started = Date.now();
    await expect(fetcher().resolveImages(input)).rejects.toMatchObject({ code: 'invalid_image_url', param: 'messages[0].content[1].image_url.url' });
    expect(Date.now() - started).toBeLessThan(2000);

    const controller = new AbortController();
    const reason = new Error('client disconnected');
    setTimeout(() => controller.abort(reason), 50);
    await expect(fetcher().resolveImages(onlyRemote([`${origin.images}/slow-headers`]), controller.signal)).rejects.toBe(reason);
  });

  it('takes any fetchImage, so other image URLs (Responses input_image) resolve the same way', async () => {
    const fetched: string[] = [];
    const input = onlyRemote(['https://one.example/a', 'https://two.example/b']);
    await resolveImages(input, { fetchImage: async (url) => (fetched.push(url), { mediaType: 'image/jpeg', data: JPEG }) });
    expect(fetched).toEqual(['https://one.example/a', 'https://two.example/b']);
    expect(input.messages[0]).toEqual({ role: 'user', content: [{ type: 'image', mediaType: 'image/jpeg', data: JPEG }, { type: 'image', mediaType: 'image/jpeg', data: JPEG }] });
    expect(seen.requests).toEqual([]);
  });
});
