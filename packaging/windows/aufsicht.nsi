; The Windows installer (scripts/package-windows.sh builds it with NSIS's
; makensis): aufsicht.exe and the README under Program Files, the folder
; on the machine's PATH, a Start-menu entry that opens the review desk on
; the newest archive in Documents\aufsicht, and an uninstaller that takes
; all of it away again. `setup.exe /S` installs without asking.
;
; makensis -DVERSION=0.1.0 -DEXE=path\aufsicht.exe -DREADME=README.md -DOUT=setup.exe

; A 64-bit installer for the 64-bit program (and Wine without its 32-bit half).
Target amd64-unicode
!include "MUI2.nsh"
!include "WinMessages.nsh"
!include "x64.nsh"

Name "aufsicht ${VERSION}"
OutFile "${OUT}"
InstallDir "$PROGRAMFILES64\aufsicht"
RequestExecutionLevel admin
SetCompressor /SOLID lzma

!define ENVIRONMENT 'HKLM "SYSTEM\CurrentControlSet\Control\Session Manager\Environment"'
!define UNINSTALL 'HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\aufsicht"'

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "German"
!insertmacro MUI_LANGUAGE "English"

Section "aufsicht"
  SetRegView 64
  SetOutPath "$INSTDIR"
  File "/oname=aufsicht.exe" "${EXE}"
  File "/oname=README.md" "${README}"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  ; The folder on the PATH, once. NSIS holds 1,024 characters and reads a
  ; longer PATH as empty: the program itself reads and writes it whole.
  nsExec::ExecToLog '"$INSTDIR\aufsicht.exe" install-path add "$INSTDIR"'
  Pop $0
  StrCmp $0 "0" +2
    DetailPrint "aufsicht install-path add: $0"
  SendMessage ${HWND_BROADCAST} ${WM_WININICHANGE} 0 "STR:Environment" /TIMEOUT=5000
  ; The desk on the newest archive the club keeps in Documents\aufsicht.
  CreateDirectory "$SMPROGRAMS\aufsicht"
  CreateShortcut "$SMPROGRAMS\aufsicht\aufsicht Prüfstelle.lnk" "$INSTDIR\aufsicht.exe" \
    'review --serve --open --newest "$DOCUMENTS\aufsicht"'
  WriteRegStr ${UNINSTALL} "DisplayName" "aufsicht"
  WriteRegStr ${UNINSTALL} "DisplayVersion" "${VERSION}"
  WriteRegStr ${UNINSTALL} "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr ${UNINSTALL} "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
SectionEnd

Section "Uninstall"
  SetRegView 64
  ; Off the PATH while the program is still there to do it.
  nsExec::ExecToLog '"$INSTDIR\aufsicht.exe" install-path remove "$INSTDIR"'
  Pop $0
  Delete "$INSTDIR\aufsicht.exe"
  Delete "$INSTDIR\README.md"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  Delete "$SMPROGRAMS\aufsicht\aufsicht Prüfstelle.lnk"
  RMDir "$SMPROGRAMS\aufsicht"
  SendMessage ${HWND_BROADCAST} ${WM_WININICHANGE} 0 "STR:Environment" /TIMEOUT=5000
  DeleteRegKey ${UNINSTALL}
SectionEnd
