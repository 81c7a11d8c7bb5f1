package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The CFA program interpreter on hand-assembled CIE and FDE bytes: the row in force at each pc is
 * the one set before the location passed it.
 */
class CfaInterpreterTest {

    private static final long FUNCTION = 0x1000;
    private static final int RBP = 6;
    private static final int RSP = 7;
    private static final int RIP = 16;

    private static UnwindRow row(CfiSection section, long pc) throws NativeDataException {
        FdeTable table = FdeScan.scan(section);
        Fde fde = table.find(pc).orElseThrow();
        return CfaInterpreter.rowAt(section, fde, pc);
    }

    /** push rbp; mov rbp, rsp: the frame every -fno-omit-frame-pointer function opens with. */
    private static CfiSection pushRbpMovRbp() {
        return new CfiAssembler().fde(FUNCTION, 0x100,
                0x41,             // advance_loc 1
                0x0e, 0x10,       // def_cfa_offset 16
                0x86, 0x02,       // offset rbp at CFA - 16
                0x43,             // advance_loc 3
                0x0d, 0x06)       // def_cfa_register rbp
                .section();
    }

    @Test
    void theCiesRulesHoldAtTheFunctionsFirstInstruction() throws Exception {
        UnwindRow row = row(pushRbpMovRbp(), FUNCTION);

        assertThat(row.cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 8));
        assertThat(row.rule(RIP)).isEqualTo(new RegisterRule.Offset(-8));
        assertThat(row.rule(RBP)).isEqualTo(RegisterRule.UNSPECIFIED);
        assertThat(row.returnAddressColumn()).isEqualTo(RIP);
        assertThat(row.signalFrame()).isFalse();
    }

    @Test
    void anAdvanceTakesEffectExactlyAtItsLocation() throws Exception {
        CfiSection section = pushRbpMovRbp();

        UnwindRow afterPush = row(section, FUNCTION + 1);
        UnwindRow lastBeforeMov = row(section, FUNCTION + 3);
        UnwindRow afterMov = row(section, FUNCTION + 4);

        assertThat(afterPush.cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 16));
        assertThat(afterPush.rule(RBP)).isEqualTo(new RegisterRule.Offset(-16));
        assertThat(lastBeforeMov.cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 16));
        assertThat(afterMov.cfa()).isEqualTo(new CfaRule.RegisterOffset(RBP, 16));
        assertThat(row(section, FUNCTION + 0xff).cfa()).isEqualTo(new CfaRule.RegisterOffset(RBP, 16));
    }

    @Test
    void wideAdvancesCountTheirOperandsInCodeAlignmentUnits() throws Exception {
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x20000,
                0x02, 0x10,             // advance_loc1 0x10
                0x0e, 0x10,             // def_cfa_offset 16
                0x03, 0x00, 0x01,       // advance_loc2 0x100
                0x0e, 0x18,             // def_cfa_offset 24
                0x04, 0x00, 0x00, 0x01, 0x00, // advance_loc4 0x10000
                0x0e, 0x20)             // def_cfa_offset 32
                .section();

        assertThat(row(section, FUNCTION + 0x0f).cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 8));
        assertThat(row(section, FUNCTION + 0x10).cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 16));
        assertThat(row(section, FUNCTION + 0x10f).cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 16));
        assertThat(row(section, FUNCTION + 0x110).cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 24));
        assertThat(row(section, FUNCTION + 0x1010f).cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 24));
        assertThat(row(section, FUNCTION + 0x10110).cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 32));
    }

    @Test
    void restoreStateBringsBackTheCfaAndRegistersRememberedBeforeAnEarlyReturn() throws Exception {
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x100,
                0x41, 0x0e, 0x10, 0x83, 0x02, // push rbx: CFA rsp+16, rbx at CFA-16
                0x44, 0x0a,                   // advance 4; remember_state
                0x0e, 0x08, 0xc3,             // pop rbx: CFA rsp+8, rbx restored to the CIE's rule
                0x41, 0x0b)                   // advance 1 (past the ret); restore_state
                .section();

        UnwindRow atRet = row(section, FUNCTION + 5);
        UnwindRow afterRet = row(section, FUNCTION + 6);

        assertThat(atRet.cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 8));
        assertThat(atRet.rule(3)).isEqualTo(RegisterRule.UNSPECIFIED);
        assertThat(afterRet.cfa()).isEqualTo(new CfaRule.RegisterOffset(RSP, 16));
        assertThat(afterRet.rule(3)).isEqualTo(new RegisterRule.Offset(-16));
    }

    @Test
    void aRestoreWithoutARememberIsMalformedData() {
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x100, 0x0b).section();

        assertThatThrownBy(() -> row(section, FUNCTION)).isInstanceOf(NativeDataException.class)
                .hasMessageContaining("restore_state");
    }

    @Test
    void rememberedStatesAreBounded() {
        int[] program = new int[CfaInterpreter.MAX_REMEMBERED + 1];
        Arrays.fill(program, 0x0a);
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x100, program).section();

        assertThatThrownBy(() -> row(section, FUNCTION)).isInstanceOf(NativeDataException.class)
                .hasMessageContaining("remembered");
    }

    @Test
    void undefinedSameValueRegisterAndValOffsetRulesAreKept() throws Exception {
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x100,
                0x07, 0x10,       // undefined rip
                0x08, 0x03,       // same_value rbx
                0x09, 0x0c, 0x05, // r12 in rdi
                0x14, 0x0d, 0x02) // r13 = CFA - 16
                .section();

        UnwindRow row = row(section, FUNCTION);

        assertThat(row.rule(RIP)).isEqualTo(RegisterRule.UNDEFINED);
        assertThat(row.rule(3)).isEqualTo(RegisterRule.SAME_VALUE);
        assertThat(row.rule(12)).isEqualTo(new RegisterRule.InRegister(5));
        assertThat(row.rule(13)).isEqualTo(new RegisterRule.ValOffset(-16));
    }

    /** The CFA rule binutils writes for a PLT entry: rsp + 8, or rsp + 16 once the entry pushed its index. */
    @Test
    void aPltCfaExpressionDependsOnThePcWithinTheEntry() throws Exception {
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x100,
                0x0f, 0x0b,             // def_cfa_expression, 11 bytes:
                0x77, 0x08,             //   breg7 (rsp) + 8
                0x80, 0x00,             //   breg16 (rip) + 0
                0x3f, 0x1a,             //   lit15; and
                0x3b, 0x2a,             //   lit11; ge
                0x33, 0x24,             //   lit3; shl
                0x22)                   //   plus
                .section();
        UnwindRow row = row(section, FUNCTION);
        DwarfBlock block = ((CfaRule.Expression) row.cfa()).block();

        assertThat(DwarfExpression.evaluate(block, registers(0x7000, FUNCTION + 0x16))).isEqualTo(0x7008);
        assertThat(DwarfExpression.evaluate(block, registers(0x7000, FUNCTION + 0x1b))).isEqualTo(0x7010);
    }

    @Test
    void aSignalFrameCieMarksItsRows() throws Exception {
        CfiSection section = new CfiAssembler("zRS", CfiAssembler.X86_64_ENTRY).fde(FUNCTION, 0x10).section();

        assertThat(row(section, FUNCTION).signalFrame()).isTrue();
    }

    @Test
    void anUnknownInstructionIsRefusedByName() {
        CfiSection section = new CfiAssembler().fde(FUNCTION, 0x100, 0x3f).section();

        assertThatThrownBy(() -> row(section, FUNCTION)).isInstanceOf(NativeDataException.class)
                .hasMessageContaining("0x3f");
    }

    @Test
    void aPcOutsideEveryFdeHasNoRow() throws Exception {
        FdeTable table = FdeScan.scan(pushRbpMovRbp());

        assertThat(table.find(FUNCTION - 1)).isEmpty();
        assertThat(table.find(FUNCTION + 0x100)).isEmpty();
        assertThat(table.find(FUNCTION + 0xff)).isPresent();
    }

    /** Registers where only rsp and rip matter. */
    private static FrameState registers(long rsp, long rip) {
        return new FrameState() {
            @Override
            public long register(int dwarf) throws NativeDataException {
                return switch (dwarf) {
                    case RSP -> rsp;
                    case RIP -> rip;
                    default -> throw new NativeDataException("register %d not set".formatted(dwarf));
                };
            }

            @Override
            public long load(long address, int size) throws MemoryAccessException {
                throw new MemoryAccessException.Unmapped(address);
            }
        };
    }
}
