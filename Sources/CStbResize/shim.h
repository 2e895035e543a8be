#include <stb/stb_image_resize.h>
