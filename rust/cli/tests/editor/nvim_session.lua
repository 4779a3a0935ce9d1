-- A user's session in Neovim (0.7 and later), run headless by rust/cli/tests/neovim.rs: the
-- editor's own LSP client starts `protocompat lsp` on a copy of examples/service, the buffer of
-- proto/shop/order.proto gets examples/shop/v3's text (unsaved), the diagnostics come, the
-- preferred quick fix of FIELD_NUMBER_CHANGED is applied through the editor, and its diagnostic
-- goes while the file on disk stays as it was. What the editor showed at each step is written
-- to $PROTOCOMPAT_OUT, one line each, for the test to read.
local bin = vim.env.PROTOCOMPAT_BIN
local root = vim.env.PROTOCOMPAT_ROOT
local v3 = vim.env.PROTOCOMPAT_V3
local out = {}
local function say(line) table.insert(out, line) end
local function finish(code)
  vim.fn.writefile(out, vim.env.PROTOCOMPAT_OUT)
  vim.cmd((code == 0) and "qall!" or "cquit " .. code)
end
local function fail(why)
  say("FAIL " .. why)
  finish(1)
end

local path = root .. "/proto/shop/order.proto"
local on_disk = vim.fn.readfile(path)
vim.cmd("edit " .. vim.fn.fnameescape(path))
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({ name = "protocompat", cmd = { bin, "lsp" }, root_dir = root })
if not client then return fail("the server did not start") end
vim.lsp.buf_attach_client(buf, client)

-- 1. examples/shop/v3 typed in, not saved.
vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.fn.readfile(v3))

local function find(code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then return d end
  end
end

-- 2. The diagnostics, FIELD_NUMBER_CHANGED at 8:3 among them.
if not vim.wait(60000, function() return find("FIELD_NUMBER_CHANGED") ~= nil end, 20) then
  return fail("no FIELD_NUMBER_CHANGED diagnostic")
end
local diagnostics = vim.diagnostic.get(buf)
table.sort(diagnostics, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.message < b.message) end)
for _, d in ipairs(diagnostics) do
  say(string.format("diagnostic %d:%d %s %s", d.lnum + 1, d.col + 1,
    vim.diagnostic.severity[d.severity], d.message))
end
local renumbered = find("FIELD_NUMBER_CHANGED")

-- The hover on it, as the editor renders its markdown.
local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = renumbered.lnum, character = renumbered.col + 2 },
}, 10000)
for _, answer in pairs(hover or {}) do
  if answer.result then
    for _, line in ipairs(vim.lsp.util.convert_input_to_markdown_lines(answer.result.contents)) do
      say("hover " .. line)
    end
  end
end

-- 3. The code action, applied by the editor.
local actions = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = {
    start = { line = renumbered.lnum, character = renumbered.col },
    ["end"] = { line = renumbered.end_lnum, character = renumbered.end_col },
  },
  context = { diagnostics = {} },
}, 10000)
local chosen
for _, answer in pairs(actions or {}) do
  if answer.error then return fail("codeAction: " .. tostring(answer.error.message)) end
  for _, action in ipairs(answer.result or {}) do
    say("action " .. action.kind .. (action.isPreferred and " preferred " or " ") .. action.title)
    if action.isPreferred and not chosen then chosen = action end
  end
end
if not chosen then return fail("no preferred quick fix") end
vim.lsp.util.apply_workspace_edit(chosen.edit, "utf-16")
say("applied " .. chosen.title)

-- 4. Its diagnostic gone; nothing written to disk.
if not vim.wait(60000, function() return find("FIELD_NUMBER_CHANGED") == nil end, 20) then
  return fail("FIELD_NUMBER_CHANGED stayed after the fix")
end
say("line 8 is now: " .. vim.api.nvim_buf_get_lines(buf, 7, 8, false)[1])
say("left: " .. #vim.diagnostic.get(buf) .. " diagnostics")
say("modified: " .. tostring(vim.bo[buf].modified))
say("on disk unchanged: " .. tostring(vim.deep_equal(vim.fn.readfile(path), on_disk)))
vim.lsp.stop_client(client)
finish(0)
