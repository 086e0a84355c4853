/* A stand-in for Windows' bcryptprimitives.dll, for running the Windows
 * build under Debian 12's Wine 8 only (scripts/wine-run.sh), which lacks
 * ProcessPrng. Rust's standard library asks it for random bytes; this
 * answers from RtlGenRandom (advapi32's SystemFunction036). Never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
