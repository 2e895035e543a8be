#!/usr/bin/env python3
"""Apple's reference LZFSE (pyliblzfse) on what the lzfse-encode fuzz target's inputs became.

  fuzz-lzfse-reference.py CORPUS WRITTEN

For every input file in CORPUS, WRITTEN/<its SHA-256>.lzfse is the stream splashgen's encoder wrote
for it (the target writes it when SPLASHFUZZ_WRITE is set). The reference must decode that stream
to the input, and its own encoder must write the same stream. Prints one summary line; exits 1
naming the first inputs that fail either check."""
import hashlib
import os
import sys

import liblzfse

corpus, written = sys.argv[1], sys.argv[2]
checked, undecoded, different = 0, [], []
for name in sorted(os.listdir(corpus)):
    data = open(os.path.join(corpus, name), "rb").read()
    path = os.path.join(written, hashlib.sha256(data).hexdigest() + ".lzfse")
    stream = open(path, "rb").read()
    checked += 1
    # pyliblzfse refuses to decode to nothing (it takes an empty output for a failure), so the
    # empty input is checked by its stream alone: the reference's own.
    try:
        if data and liblzfse.decompress(stream) != data:
            undecoded.append(name)
    except liblzfse.error:
        undecoded.append(name)
    if liblzfse.compress(data) != stream:
        different.append(name)
print(f"fuzz: lzfse-encode: the reference decoded {checked - len(undecoded)} of {checked} streams to their inputs, "
      f"and wrote the same stream for {checked - len(different)}")
if undecoded or different:
    print(f"fuzz: lzfse-encode: not decoded: {undecoded[:5]}; another stream: {different[:5]}")
    sys.exit(1)
