// A C face for ARM's astcenc (C++ API in <astcenc.h>), so Swift can call it.
// Only what splashgen needs: ASTC 4x4 LDR, RGBA8 in and out, one thread per codec.
#ifndef SPLASH_ASTC_H
#define SPLASH_ASTC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An astcenc context for ASTC 4x4 LDR. Not thread-safe: use one per thread.
typedef struct splash_astc_codec splash_astc_codec;

/// Creates a codec. `quality` is astcenc's 0...100 effort (fast = 10, medium = 60, thorough = 98).
/// `decode_only` makes a lighter context that can only decompress.
/// Returns 0 on success, else an error code for `splash_astc_error_string`.
int splash_astc_codec_create(float quality, int decode_only, splash_astc_codec **codec_out);

/// Frees a codec made by `splash_astc_codec_create`.
void splash_astc_codec_free(splash_astc_codec *codec);

/// Bytes of ASTC 4x4 block data for an image: ceil(w/4) * ceil(h/4) * 16.
size_t splash_astc_block_bytes(uint32_t width, uint32_t height);

/// Compresses straight-alpha RGBA8 pixels (rows top first, no padding) into ASTC 4x4 blocks.
int splash_astc_compress(splash_astc_codec *codec, const uint8_t *rgba, uint32_t width, uint32_t height,
                         uint8_t *blocks_out, size_t blocks_len);

/// Decompresses ASTC 4x4 blocks into RGBA8 pixels (width * height * 4 bytes).
int splash_astc_decompress(splash_astc_codec *codec, const uint8_t *blocks, size_t blocks_len,
                           uint32_t width, uint32_t height, uint8_t *rgba_out);

/// A human-readable name for an error code returned above.
const char *splash_astc_error_string(int code);

#ifdef __cplusplus
}
#endif

#endif
