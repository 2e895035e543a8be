#include "splash_astc.h"

#include <astcenc.h>
#include <new>

struct splash_astc_codec {
    astcenc_context *context;
};

// Codes beyond astcenc's own: allocation failed in this shim.
static const int SPLASH_ASTC_ERR_ALLOC = 1000;

static const astcenc_swizzle identity = {ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};

extern "C" int splash_astc_codec_create(float quality, int decode_only, splash_astc_codec **codec_out) {
    *codec_out = nullptr;
    astcenc_config config;
    unsigned int flags = decode_only ? ASTCENC_FLG_DECOMPRESS_ONLY : 0;
    // The OS's own files are glInternalFormat 0x93B0 (RGBA ASTC 4x4, not the sRGB variant): the
    // block values are the sRGB-encoded bytes themselves, so the linear LDR profile is the match.
    astcenc_error status = astcenc_config_init(ASTCENC_PRF_LDR, 4, 4, 1, quality, flags, &config);
    if (status != ASTCENC_SUCCESS) return status;
    splash_astc_codec *codec = new (std::nothrow) splash_astc_codec{nullptr};
    if (!codec) return SPLASH_ASTC_ERR_ALLOC;
    status = astcenc_context_alloc(&config, 1, &codec->context);
    if (status != ASTCENC_SUCCESS) {
        delete codec;
        return status;
    }
    *codec_out = codec;
    return 0;
}

extern "C" void splash_astc_codec_free(splash_astc_codec *codec) {
    if (!codec) return;
    astcenc_context_free(codec->context);
    delete codec;
}

extern "C" size_t splash_astc_block_bytes(uint32_t width, uint32_t height) {
    return (size_t)((width + 3) / 4) * (size_t)((height + 3) / 4) * 16;
}

static astcenc_image make_image(void **slices, uint32_t width, uint32_t height) {
    astcenc_image image;
    image.dim_x = width;
    image.dim_y = height;
    image.dim_z = 1;
    image.data_type = ASTCENC_TYPE_U8;
    image.data = slices;
    return image;
}

extern "C" int splash_astc_compress(splash_astc_codec *codec, const uint8_t *rgba, uint32_t width, uint32_t height,
                                    uint8_t *blocks_out, size_t blocks_len) {
    void *slices[1] = {const_cast<uint8_t *>(rgba)};
    astcenc_image image = make_image(slices, width, height);
    astcenc_error status = astcenc_compress_image(codec->context, &image, &identity, blocks_out, blocks_len, 0);
    astcenc_error reset = astcenc_compress_reset(codec->context);
    return status != ASTCENC_SUCCESS ? status : reset;
}

extern "C" int splash_astc_decompress(splash_astc_codec *codec, const uint8_t *blocks, size_t blocks_len,
                                      uint32_t width, uint32_t height, uint8_t *rgba_out) {
    void *slices[1] = {rgba_out};
    astcenc_image image = make_image(slices, width, height);
    astcenc_error status = astcenc_decompress_image(codec->context, blocks, blocks_len, &image, &identity, 0);
    astcenc_error reset = astcenc_decompress_reset(codec->context);
    return status != ASTCENC_SUCCESS ? status : reset;
}

extern "C" const char *splash_astc_error_string(int code) {
    if (code == SPLASH_ASTC_ERR_ALLOC) return "out of memory";
    return astcenc_get_error_string(static_cast<astcenc_error>(code));
}
