# A package of small modules written for tirx-verify's extraction tests: a kernel next to this
# directory imports it absolutely, as the TIRx kernels import their own repository.
