/* The "firmware image" the example bootloader checks, its signature and the
 * public key (SLH-DSA-SHA2-128s; crates/embedded-verify/vectors, made by
 * crates/sphincs/tests/embedded_vectors.rs). Assembled with
 * -Wa,-I,crates/embedded-verify/vectors. */
    .section .rodata.firmware, "a"
    .balign 4
    .global firmware, firmware_end
firmware:
    .incbin "message.txt"
firmware_end:
    .balign 4
    .global firmware_sig, firmware_sig_end
firmware_sig:
    .incbin "sha2-128s.sig"
firmware_sig_end:
    .global firmware_pk, firmware_pk_end
firmware_pk:
    .incbin "sha2-128s.pk"
firmware_pk_end:
    .section .note.GNU-stack, "", %progbits
