/* A stand-in for Windows' bcryptprimitives.dll, for `./build.sh crosscheck` only (never
 * shipped). Rust's standard library takes its random bytes from ProcessPrng in that DLL, which
 * every Windows 10/11 has but Debian's Wine 8.0 does not: without it tether.exe does not start
 * under Wine. RtlGenRandom (advapi32's SystemFunction036) gives the same kind of bytes. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
