// Not compiled on Apple platforms, where the Compression framework does this work.
#if !canImport(Compression)
// Pure-Swift LZVN block decoder (the payload of `bvxn` blocks).
//
// Opcodes (first byte; L = literal length, M = match length, D = distance):
//   LLMMMDDD DDDDDDDD            sml_d  L 0-3, M 3-10, D < 0x600
//   101LLMMM DDDDDDMM DDDDDDDD   med_d  L 0-3, M 3-34, D < 0x4000
//   LLMMM111 DDDDDDDD DDDDDDDD   lrg_d  L 0-3, M 3-10, D < 0x10000
//   LLMMM110                     pre_d  L 1-3, M 3-10, previous D
//   1111MMMM / 11110000 MMMMMMMM sml_m / lrg_m  match only (M 1-15 / 16-271), previous D
//   1110LLLL / 11100000 LLLLLLLL sml_l / lrg_l  literal only (L 1-15 / 16-271)
//   00000110 + 7 bytes           end of stream;  00001110, 00010110  nop
//   everything else              undefined

enum LZVNDecoder {
    /// Decodes the LZVN payload `input[payloadStart..<payloadEnd]` into
    /// `out[dstStart..<dstEnd]`. `out` has at least 64 bytes of slack after the
    /// stream's total size; matches may reach back to `out[0]`. The payload
    /// must end exactly with the end-of-stream opcode and produce exactly
    /// `dstEnd - dstStart` bytes.
    static func decodeBlock(
        _ base: UnsafeRawPointer, inputCount: Int, payloadStart: Int, payloadEnd: Int,
        out: UnsafeMutablePointer<UInt8>, dstStart: Int, dstEnd: Int, blockOffset: Int
    ) throws(LZFSEError) {
        let src = base.assumingMemoryBound(to: UInt8.self)
        var s = payloadStart
        var d = dstStart
        var D = 0  // previous distance; 0 = none yet
        while true {
            guard s < payloadEnd else {
                throw .corruptBlock(offset: blockOffset, reason: .payloadSizeMismatch)
            }
            let opcodeOffset = s
            let opc = Int(src[s])
            var L = 0
            var M = 0
            var opLen = 1
            switch opc {
            case 0xE0:  // lrg_l
                guard payloadEnd &- s >= 2 else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
                opLen = 2
                L = Int(src[s &+ 1]) &+ 16
            case 0xE1...0xEF:  // sml_l
                L = opc & 0xF
            case 0xF0:  // lrg_m
                guard payloadEnd &- s >= 2 else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
                opLen = 2
                M = Int(src[s &+ 1]) &+ 16
            case 0xF1...0xFF:  // sml_m
                M = opc & 0xF
            case 0xA0...0xBF:  // med_d
                guard payloadEnd &- s >= 3 else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
                opLen = 3
                L = (opc &>> 3) & 3
                let opc23 = Int(src[s &+ 1]) | (Int(src[s &+ 2]) &<< 8)
                M = (((opc & 7) &<< 2) | (opc23 & 3)) &+ 3
                D = opc23 &>> 2
            case 0x70...0x7F, 0xD0...0xDF:
                throw .corruptBlock(offset: opcodeOffset, reason: .undefinedOpcode)
            default:
                L = opc &>> 6
                M = ((opc &>> 3) & 7) &+ 3
                switch opc & 7 {
                case 7:  // lrg_d
                    guard payloadEnd &- s >= 3 else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
                    opLen = 3
                    D = Int(src[s &+ 1]) | (Int(src[s &+ 2]) &<< 8)
                case 6:
                    if opc >= 0x40 {
                        break  // pre_d: keeps D
                    }
                    if opc == 0x06 {  // end of stream: 8 bytes
                        guard payloadEnd &- s >= 8 else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
                        s &+= 8
                        guard s == payloadEnd else {
                            throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch)
                        }
                        guard d == dstEnd else {
                            throw .corruptBlock(offset: blockOffset, reason: .rawSizeMismatch)
                        }
                        return
                    }
                    if opc == 0x0E || opc == 0x16 {  // nop
                        s &+= 1
                        continue
                    }
                    throw .corruptBlock(offset: opcodeOffset, reason: .undefinedOpcode)
                default:  // sml_d
                    guard payloadEnd &- s >= 2 else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
                    opLen = 2
                    D = ((opc & 7) &<< 8) | Int(src[s &+ 1])
                }
            }
            // L <= 271 and M <= 271: sums cannot overflow.
            guard L <= payloadEnd &- s &- opLen else { throw .corruptBlock(offset: opcodeOffset, reason: .payloadSizeMismatch) }
            s &+= opLen
            guard L &+ M <= dstEnd &- d else {
                throw .corruptBlock(offset: opcodeOffset, reason: .outputOverrun)
            }
            if L > 0 {
                let o = out + d
                if s &+ L &+ 8 <= inputCount {
                    var n = 0
                    while n < L {
                        UnsafeMutableRawPointer(o + n).storeBytes(
                            of: base.loadUnaligned(fromByteOffset: s &+ n, as: UInt64.self), as: UInt64.self)
                        n &+= 8
                    }
                } else {
                    o.initialize(from: src + s, count: L)
                }
                s &+= L
                d &+= L
            }
            if M > 0 {
                guard D > 0, D <= d else {
                    throw .corruptBlock(offset: opcodeOffset, reason: .invalidMatchDistance)
                }
                LZFSEDecoder.copyMatch(out: out, dst: d, distance: D, length: M)
                d &+= M
            }
        }
    }
}
#endif
