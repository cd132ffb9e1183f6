#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H

// libqrencode's public API: QRcode_encodeData / QRcode_free and the QRecLevel enum.
#include <qrencode.h>

#endif
