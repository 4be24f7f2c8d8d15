/*
 * Wine 8.0 answers NtSetInformationFile(FileDispositionInformationEx) with
 * STATUS_NOT_IMPLEMENTED ("Unsupported class (64)"); Windows before 10 1607
 * answers STATUS_INVALID_INFO_CLASS, which Go's os.RemoveAll takes as its cue
 * to use the older FileDispositionInformation. Go passes NOT_IMPLEMENTED on as
 * "Invalid function", so under Wine 8.0 every t.TempDir cleanup fails (strider
 * itself never calls RemoveAll). This rewrites that one answer into the
 * Windows one: nothing else about the call changes.
 *
 * It is linked into the bcryptprimitives.dll stub, which every Go program
 * loads at start-up, before any of its code runs. It patches the first bytes
 * of ntdll's NtSetInformationFile only when they are the syscall thunk this
 * was written against (Wine 8's: mov r10,rcx; mov eax,N; ...), whose code is
 * position-independent and is copied whole into a trampoline. Anything else
 * is left alone, and the tests then fail loudly ("Invalid function").
 */
#include <windows.h>
#include <string.h>

#define STATUS_NOT_IMPLEMENTED_ ((LONG)0xC0000002)
#define STATUS_INVALID_INFO_CLASS_ ((LONG)0xC0000003)
#define FILE_DISPOSITION_INFORMATION_EX_CLASS 64
#define THUNK_LEN 32

typedef LONG(NTAPI *setinfo_fn)(HANDLE, PVOID, PVOID, ULONG, ULONG);
static setinfo_fn original;

static LONG NTAPI set_information_file(HANDLE h, PVOID io, PVOID info, ULONG len, ULONG class)
{
	LONG status = original(h, io, info, len, class);
	if (status == STATUS_NOT_IMPLEMENTED_ && class == FILE_DISPOSITION_INFORMATION_EX_CLASS)
		return STATUS_INVALID_INFO_CLASS_;
	return status;
}

static void hook(void)
{
	static const unsigned char head[] = {0x4c, 0x8b, 0xd1, 0xb8}; /* mov r10,rcx; mov eax,imm32 */
	unsigned char *target = (unsigned char *)GetProcAddress(GetModuleHandleA("ntdll.dll"), "NtSetInformationFile");
	unsigned char *tramp;
	DWORD old;
	if (!target || memcmp(target, head, sizeof head) != 0)
		return;
	tramp = VirtualAlloc(NULL, THUNK_LEN, MEM_COMMIT | MEM_RESERVE, PAGE_EXECUTE_READWRITE);
	if (!tramp)
		return;
	memcpy(tramp, target, THUNK_LEN);
	original = (setinfo_fn)tramp;
	if (!VirtualProtect(target, 12, PAGE_EXECUTE_READWRITE, &old))
		return;
	target[0] = 0x48; /* mov rax, imm64 */
	target[1] = 0xb8;
	*(void **)(target + 2) = (void *)set_information_file;
	target[10] = 0xff; /* jmp rax */
	target[11] = 0xe0;
	VirtualProtect(target, 12, old, &old);
	FlushInstructionCache(GetCurrentProcess(), target, 12);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	(void)reserved;
	if (reason == DLL_PROCESS_ATTACH)
		hook();
	return TRUE;
}
