import { describe, expect, it } from 'vitest';
import { checkUpload } from '../../src/events/event-media-service.js';
import { declaredImageType, imageTypeOfName, sniffImage } from '../../src/core/image-format.js';
import { withSiteBrand } from '../../src/core/mailer.js';
import { tinyJpeg, tinyPng, tinyWebp } from '../helpers/images.js';

const LIMITS = { coverMaxBytes: 2000, logoMaxBytes: 500, maxDimension: 100, maxPixels: 5000 };

describe('sniffImage', () => {
  it('tells PNG, JPEG and WebP (lossy, lossless, extended) with their sizes from the header', () => {
    expect(sniffImage(tinyPng(3, 2))).toEqual({ type: 'image/png', width: 3, height: 2 });
    expect(sniffImage(tinyJpeg(640, 480))).toEqual({ type: 'image/jpeg', width: 640, height: 480 });
    expect(sniffImage(tinyWebp(5, 7))).toEqual({ type: 'image/webp', width: 5, height: 7 });
    const vp8 = Buffer.alloc(30);
    vp8.write('RIFF', 0, 'ascii');
    vp8.write('WEBP', 8, 'ascii');
    vp8.write('VP8 ', 12, 'ascii');
    vp8.set([0x9d, 0x01, 0x2a], 23);
    vp8.writeUInt16LE(320, 26);
    vp8.writeUInt16LE(200, 28);
    expect(sniffImage(vp8)).toEqual({ type: 'image/webp', width: 320, height: 200 });
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'ascii');
    vp8x.write('WEBP', 8, 'ascii');
    vp8x.write('VP8X', 12, 'ascii');
    vp8x.writeUIntLE(1199, 24, 3);
    vp8x.writeUIntLE(629, 27, 3);
    expect(sniffImage(vp8x)).toEqual({ type: 'image/webp', width: 1200, height: 630 });
  });

  it('skips JPEG segments and fill bytes before the frame header', () => {
    const jpeg = tinyJpeg(10, 20);
    const exif = Buffer.from([0xff, 0xe1, 0x00, 0x06, 0x45, 0x78, 0x69, 0x66]);
    const withExtra = Buffer.concat([jpeg.subarray(0, 2), exif, Buffer.from([0xff]), jpeg.subarray(2)]);
    expect(sniffImage(withExtra)).toEqual({ type: 'image/jpeg', width: 10, height: 20 });
  });

  it('refuses everything else: text, HTML, SVG, GIF, truncated or sizeless headers', () => {
    for (const bytes of [
      Buffer.from('hello'),
      Buffer.from('<!doctype html><script>alert(1)</script>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('GIF89a\x01\x00\x01\x00'),
      tinyPng().subarray(0, 24),
      tinyJpeg().subarray(0, 6),
      tinyJpeg(0, 0),
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]), Buffer.alloc(10)]),
      Buffer.alloc(0),
    ]) {
      expect(sniffImage(bytes)).toBeNull();
    }
  });

  it('reads declared types and file extensions', () => {
    expect(declaredImageType('IMAGE/PNG; charset=binary')).toBe('image/png');
    expect(declaredImageType('image/jpg')).toBe('image/jpeg');
    expect(declaredImageType('image/svg+xml')).toBeNull();
    expect(declaredImageType(undefined)).toBeNull();
    expect(imageTypeOfName('Cover.JPEG')).toBe('image/jpeg');
    expect(imageTypeOfName('logo.webp')).toBe('image/webp');
    expect(imageTypeOfName('logo.svg')).toBeNull();
    expect(imageTypeOfName('noextension')).toBeNull();
  });
});

describe('checkUpload', () => {
  it('checks size first, then the declared type, the bytes, their agreement, the name and the pixels', () => {
    expect(() => checkUpload('logo', Buffer.alloc(501), 'image/png', undefined, LIMITS)).toThrow(expect.objectContaining({ code: 'media_too_large' }));
    expect(() => checkUpload('cover', tinyPng(), 'text/plain', undefined, LIMITS)).toThrow(expect.objectContaining({ code: 'media_type_unsupported' }));
    expect(() => checkUpload('cover', Buffer.from('<svg/>'), 'image/png', undefined, LIMITS)).toThrow(
      expect.objectContaining({ code: 'media_type_unsupported' }),
    );
    expect(() => checkUpload('cover', tinyPng(), 'image/webp', undefined, LIMITS)).toThrow(expect.objectContaining({ code: 'media_type_mismatch' }));
    expect(() => checkUpload('cover', tinyPng(), 'image/png', 'x.jpg', LIMITS)).toThrow(expect.objectContaining({ code: 'media_type_mismatch' }));
    expect(() => checkUpload('cover', tinyJpeg(101, 1), 'image/jpeg', undefined, LIMITS)).toThrow(expect.objectContaining({ code: 'media_too_large' }));
    // Within a side but over the pixel count (100 × 51 > 5000): refused; exactly at it: taken.
    expect(() => checkUpload('cover', tinyJpeg(100, 51), 'image/jpeg', undefined, LIMITS)).toThrow(
      expect.objectContaining({ code: 'media_too_large', extra: expect.objectContaining({ max_pixels: 5000 }) }),
    );
    expect(checkUpload('cover', tinyJpeg(100, 50), 'image/jpeg', 'a.jpg', LIMITS)).toEqual({ type: 'image/jpeg', width: 100, height: 50 });
  });
});

describe('withSiteBrand', () => {
  const mail = { to: 'a@example.com', subject: 'S', text: 'Hello\n', html: '<!doctype html><html><body style="x"><p>Hello</p>\n</body></html>' };
  it('adds the site name footer and logo only to mails that ask for it', () => {
    const brand = { siteName: 'Open <Hack>', publicUrl: 'https://hack.example', siteLogo: 'https://hack.example/site-logo?v=1' };
    expect(withSiteBrand(mail, brand)).toEqual(mail);
    const branded = withSiteBrand({ ...mail, brand: true }, brand);
    expect(branded.text).toBe('Hello\n\n--\nThis mail was sent by Open <Hack> (https://hack.example).\n');
    expect(branded.html).toContain('<body style="x">\n<p><img src="https://hack.example/site-logo?v=1" alt="Open &lt;Hack&gt;"');
    expect(branded.html).toContain('This mail was sent by Open &lt;Hack&gt; (https://hack.example).</p>\n</body>');
    expect('brand' in branded).toBe(false);
  });
});
