@echo off
rem Runs the Reasonix agent-hooks bridge (dist\hook.js) with the runtime the VS Code window
rem recorded at activation (its own executable as Node, ELECTRON_RUN_AS_NODE=1): no node on
rem PATH is needed. No runtime recorded yet: no decision. Always exit 0 (2 blocks the agent).
setlocal
set "d=%REASONIX_HOOKS_DIR%"
if "%d%"=="" set "d=%LOCALAPPDATA%\reasonix-host\hooks"
if not exist "%d%\runtime" (
  more >nul
  echo reasonix-hook: no VS Code window with Reasonix agent hooks has run for this user; no decision 1>&2
  exit /b 0
)
set /p rt=<"%d%\runtime"
set ELECTRON_RUN_AS_NODE=1
"%rt%" "%~dp0..\..\dist\hook.js" %*
exit /b 0
