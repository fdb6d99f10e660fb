#!/usr/bin/env python3
"""Tiny .npy writer and reader without numpy (python3 here may lack it).

  npy.py write FILE DTYPE SHAPE VALUES   DTYPE f4|f2|i4, SHAPE "2,4" ("" = scalar), VALUES "0,1,-1"
  npy.py read FILE                       prints "DTYPE SHAPE" then one value per line
"""
import ast
import struct
import sys

CODES = {'f4': ('<f4', 'f'), 'f2': ('<f2', 'e'), 'i4': ('<i4', 'i'), 'f8': ('<f8', 'd')}


def write(path, dtype, shape_text, values_text):
    shape = tuple(int(d) for d in shape_text.split(',') if d)
    values = [float(v) for v in values_text.split(',') if v]
    descr, fmt = CODES[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, repr(shape))
    header += ' ' * ((64 - (10 + len(header) + 1) % 64) % 64) + '\n'
    data = b''.join(struct.pack('<' + fmt, int(v) if dtype == 'i4' else v) for v in values)
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data)


def read(path):
    raw = open(path, 'rb').read()
    if raw[:6] != b'\x93NUMPY':
        raise SystemExit(path + ': not a .npy file')
    if raw[6] == 1:
        hlen, start = struct.unpack('<H', raw[8:10])[0], 10
    else:
        hlen, start = struct.unpack('<I', raw[8:12])[0], 12
    header = ast.literal_eval(raw[start:start + hlen].decode())
    dtype = [k for k, (d, _) in CODES.items() if d == header['descr']][0]
    fmt = CODES[dtype][1]
    count = 1
    for d in header['shape']:
        count *= d
    body = raw[start + hlen:]
    values = struct.unpack('<%d%s' % (count, fmt), body[:count * struct.calcsize(fmt)])
    print(dtype, ','.join(str(d) for d in header['shape']))
    for v in values:
        print(repr(v))


if __name__ == '__main__':
    if sys.argv[1] == 'write':
        write(*sys.argv[2:6])
    else:
        read(sys.argv[2])
