// Not compiled on Apple platforms, where the Compression framework does this work.
#if !canImport(Compression)
// Pure-Swift LZVN encoder producing `bvxn` blocks inside an LZFSE stream.
//
// Greedy parser with a single-entry hash table over 4-byte sequences plus a
// "repeat the previous distance" probe at every position, which makes long
// runs of identical 16-byte ASTC blocks cost two bytes per 271 output bytes.
// Each block (at most `blockSize` input bytes) is self-contained: matches
// never reach into earlier blocks. A block that would not shrink is stored.

package enum LZVNEncoder {
    static let blockSize = 1 << 20
    static let hashBits = 15
    static let maxDistance = 0xFFFF

    /// Encodes `input` as a complete LZFSE stream of `bvxn` (or `bvx-`) blocks.
    package static func encode(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBufferPointer { encode($0) }
    }

    static func encode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        let n = input.count
        result.reserveCapacity(n / 2 + 64)
        guard let src = input.baseAddress, n >= 8 else {
            // Like the reference: tiny inputs (and empty input) become one stored block.
            LZFSEWriter.appendStored(&result, input)
            LZFSEWriter.append32(&result, LZFSEConstants.magicEnd)
            return result
        }
        let capacity = blockSize + blockSize / 64 + 256
        let dst = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { dst.deallocate() }
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: 1 << hashBits)
        defer { table.deallocate() }
        var start = 0
        while start < n {
            let len = min(blockSize, n - start)
            let payload = encodeBlock(src: src + start, count: len, dst: dst, capacity: capacity, table: table)
            if payload > 0 && payload + 12 < len + 8 {
                LZFSEWriter.append32(&result, LZFSEConstants.magicLZVN)
                LZFSEWriter.append32(&result, UInt32(len))
                LZFSEWriter.append32(&result, UInt32(payload))
                result.append(contentsOf: UnsafeBufferPointer(start: dst, count: payload))
            } else {
                LZFSEWriter.appendStored(&result, UnsafeBufferPointer(start: src + start, count: len))
            }
            start += len
        }
        LZFSEWriter.append32(&result, LZFSEConstants.magicEnd)
        return result
    }

    @inline(__always)
    static func load4(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
        UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self)
    }

    @inline(__always)
    static func hash(_ x: UInt32) -> Int {
        Int(truncatingIfNeeded: (x &* 2_654_435_761) &>> UInt32(32 - hashBits))
    }

    /// Length of the common prefix of `p[a...]` and `p[b...]` (b < a), not reading at or past `end`.
    @inline(__always)
    static func matchLength(_ p: UnsafePointer<UInt8>, _ a: Int, _ b: Int, _ end: Int) -> Int {
        var len = 0
        let maxLen = end &- a
        while len &+ 8 <= maxLen {
            let x = UnsafeRawPointer(p + a + len).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(p + b + len).loadUnaligned(as: UInt64.self)
            let diff = UInt64(littleEndian: x ^ y)
            if diff != 0 {
                return len &+ diff.trailingZeroBitCount &>> 3
            }
            len &+= 8
        }
        while len < maxLen && p[a &+ len] == p[b &+ len] {
            len &+= 1
        }
        return len
    }

    /// Encodes `src[0..<count]` as an LZVN payload (ending with the end-of-stream
    /// opcode) into `dst`. Returns the payload size, or 0 if it did not fit.
    static func encodeBlock(
        src: UnsafePointer<UInt8>, count: Int, dst: UnsafeMutablePointer<UInt8>, capacity: Int,
        table: UnsafeMutablePointer<Int32>
    ) -> Int {
        table.update(repeating: -1, count: 1 << hashBits)
        var w = LZVNWriter(dst: dst, capacity: capacity)
        var i = 0
        var anchor = 0
        var prevD = 0
        while i &+ 4 <= count {
            let x = load4(src, i)
            var bestLen = 0
            var bestD = 0
            if prevD > 0 && i >= prevD && load4(src, i &- prevD) == x {
                bestLen = 4 &+ matchLength(src, i &+ 4, i &+ 4 &- prevD, count)
                bestD = prevD
            }
            let h = hash(x)
            let candidate = Int(table[h])
            table[h] = Int32(truncatingIfNeeded: i)
            if candidate >= 0 {
                let dist = i &- candidate
                if dist > 0 && dist <= maxDistance && dist != bestD && load4(src, candidate) == x {
                    let len = 4 &+ matchLength(src, i &+ 4, candidate &+ 4, count)
                    // A repeat-distance match is cheaper; prefer a new distance only if clearly longer.
                    if len > bestLen &+ 2 {
                        bestLen = len
                        bestD = dist
                    }
                }
            }
            if bestLen < 4 {
                i &+= 1 &+ ((i &- anchor) &>> 6)
                continue
            }
            // Extend backwards into the pending literals.
            while i > anchor && i > bestD && src[i &- 1] == src[i &- 1 &- bestD] {
                i &-= 1
                bestLen &+= 1
            }
            guard w.emit(literals: src + anchor, count: i &- anchor, distance: bestD, match: bestLen, prevD: &prevD)
            else { return 0 }
            let matchEnd = i &+ bestLen
            // Index the last positions of the match (the most recent candidates).
            var p = max(i &+ 1, matchEnd &- 16)
            while p &+ 4 <= count && p < matchEnd {
                table[hash(load4(src, p))] = Int32(truncatingIfNeeded: p)
                p &+= 1
            }
            i = matchEnd
            anchor = matchEnd
        }
        guard w.emit(literals: src + anchor, count: count &- anchor, distance: 0, match: 0, prevD: &prevD),
            w.emitEndOfStream()
        else { return 0 }
        return w.o
    }
}

/// Appends LZVN opcodes to a fixed-capacity buffer; every emit checks the
/// worst-case size it may write first.
struct LZVNWriter {
    let dst: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var o = 0

    init(dst: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.dst = dst
        self.capacity = capacity
    }

    @inline(__always)
    mutating func put(_ b: Int) {
        dst[o] = UInt8(truncatingIfNeeded: b)
        o &+= 1
    }

    /// Largest match length a one-byte-literal-header opcode (sml_d, lrg_d, pre_d) can carry for L = 0...3.
    @inline(__always)
    static func maxShortMatch(_ l: Int) -> Int { 10 &- 2 &* l }

    /// Emits `count` literals followed by a match of `match` bytes at `distance` (match may be 0).
    mutating func emit(
        literals: UnsafePointer<UInt8>, count: Int, distance: Int, match: Int, prevD: inout Int
    ) -> Bool {
        let worst = count &+ 2 &* (count / 271 &+ 2) &+ 4 &+ 2 &* (match / 271 &+ 2)
        guard worst <= capacity &- o &- 8 else { return false }
        var lit = literals
        var l = count
        // Literal-only opcodes until at most 3 literals remain (0 if there is no match).
        let keep = match > 0 ? 3 : 0
        while l > keep {
            let n = min(l, 271)
            if n < 16 {
                put(0xE0 | n)
            } else {
                put(0xE0)
                put(n &- 16)
            }
            (dst + o).update(from: lit, count: n)
            o &+= n
            lit += n
            l &-= n
        }
        guard match > 0 else { return true }
        var m = match
        let d = distance
        if d == prevD {
            if l > 0 {
                let mm = min(m, LZVNWriter.maxShortMatch(l))
                put((l &<< 6) | ((mm &- 3) &<< 3) | 6)  // pre_d
                (dst + o).update(from: lit, count: l)
                o &+= l
                m &-= mm
            }
        } else if d < 0x600 {
            let mm = min(m, LZVNWriter.maxShortMatch(l))
            put((l &<< 6) | ((mm &- 3) &<< 3) | (d &>> 8))  // sml_d
            put(d & 0xFF)
            (dst + o).update(from: lit, count: l)
            o &+= l
            m &-= mm
        } else if d < 0x4000 {
            let mm = min(m, 34)
            let opc23 = (d &<< 2) | ((mm &- 3) & 3)
            put(0xA0 | (l &<< 3) | ((mm &- 3) &>> 2))  // med_d
            put(opc23 & 0xFF)
            put(opc23 &>> 8)
            (dst + o).update(from: lit, count: l)
            o &+= l
            m &-= mm
        } else {
            let mm = min(m, LZVNWriter.maxShortMatch(l))
            put((l &<< 6) | ((mm &- 3) &<< 3) | 7)  // lrg_d
            put(d & 0xFF)
            put(d &>> 8)
            (dst + o).update(from: lit, count: l)
            o &+= l
            m &-= mm
        }
        prevD = d
        // Remaining match bytes with the (now previous) distance.
        while m > 0 {
            if m >= 16 {
                let n = min(m, 271)
                put(0xF0)
                put(n &- 16)
                m &-= n
            } else {
                put(0xF0 | m)
                m = 0
            }
        }
        return true
    }

    mutating func emitEndOfStream() -> Bool {
        guard capacity &- o >= 8 else { return false }
        put(0x06)
        for _ in 0..<7 { put(0) }
        return true
    }
}

/// Helpers for writing LZFSE block framing.
enum LZFSEWriter {
    static func append32(_ out: inout [UInt8], _ v: UInt32) {
        out.append(UInt8(truncatingIfNeeded: v))
        out.append(UInt8(truncatingIfNeeded: v &>> 8))
        out.append(UInt8(truncatingIfNeeded: v &>> 16))
        out.append(UInt8(truncatingIfNeeded: v &>> 24))
    }

    /// Appends `bvx-` blocks holding `bytes` (split so each block's size fits a UInt32).
    static func appendStored(_ out: inout [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.isEmpty {
            append32(&out, LZFSEConstants.magicStored)
            append32(&out, 0)
            return
        }
        var start = 0
        while start < bytes.count {
            let len = min(bytes.count - start, 1 << 30)
            append32(&out, LZFSEConstants.magicStored)
            append32(&out, UInt32(len))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(start + len)]))
            start += len
        }
    }
}
#endif
