/*
 * A stand-in for Windows' bcryptprimitives.dll, for running strider's
 * windows/amd64 tests under Wine 8.0 (Debian 12), which lacks it: Go 1.22
 * and later take their random bytes from its ProcessPrng and end at start-up
 * ("bcryptprimitives.dll not found") without it. ProcessPrng is passed on to
 * advapi32's RtlGenRandom (SystemFunction036), which Wine has. Built and
 * placed in a throwaway WINEPREFIX's system32 by scripts/cross-test.sh; never
 * shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData)
{
	/* RtlGenRandom takes a ULONG length: feed it in pieces. */
	while (cbData > 0) {
		ULONG n = cbData > 0x40000000 ? 0x40000000 : (ULONG)cbData;
		if (!SystemFunction036(pbData, n))
			return FALSE;
		pbData += n;
		cbData -= n;
	}
	return TRUE;
}
