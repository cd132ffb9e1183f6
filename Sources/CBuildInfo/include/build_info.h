#ifndef CHECKOUT_BUILD_INFO_H
#define CHECKOUT_BUILD_INFO_H

/// The git commit this binary was built from ("unknown" outside a checkout made by `make`).
const char *checkout_build_commit(void);

#endif
