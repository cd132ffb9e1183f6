#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

// zlib's public API: compress2 / compressBound for PNG's IDAT stream, crc32 for chunk CRCs.
#include <zlib.h>

#endif
