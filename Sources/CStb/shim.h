#include <stb/stb_image_resize.h>
#include <stb/stb_truetype.h>
