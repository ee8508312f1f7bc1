# What every scene shares (src/shell.rs), the PyTorch panel (src/code_panel.rs), sharing
# (src/share_panel.rs, src/class_link.rs), saving in the browser (src/storage.rs), the page shown
# after a bug (src/crash.rs) and the pages of the app (src/app.rs, src/more.rs).

## The frame of a scene (src/shell.rs)

shell-skip = Skip to the animation
# Why a run of SGD steps ended early; the sentence goes on "… after 3 of 20 steps; those steps are kept."
shell-run-stopped = Run stopped by another change
# Why a run of SGD steps ended early (its Cancel button); the sentence goes on "… after 3 of 20 steps; those steps are kept."
shell-run-cancelled = Cancelled
# Why a file being written was not copied or downloaded: its Cancel was clicked. Shown as "Not copied: cancelled."
shell-cancelled = cancelled
# Why a lesson could not be played (shown in shell-lesson-not-played).
shell-no-such-step = no such step
# A link names a lesson the scene does not have; $characters is the length of the name it gives.
shell-link-no-lesson = This link asks for a lesson this scene does not have ({ $characters ->
        [one] { $characters } character
       *[other] { $characters } characters
    }); nothing was changed.
# $steps: how many steps the lesson has.
shell-link-no-step = This link asks for a step the lesson does not have (it has { $steps }): it starts at step 1.
# $error says why, e.g. "no such step".
shell-lesson-not-played = This lesson could not be played: { $error }.
# Shown in the PyTorch panel instead of the script, as a Python comment (keep the "# "); $error is more-unloaded.
shell-script-unloaded = # Not written: { $error }. Close the panel and open it again to try again.
# Shown in the PyTorch panel while the script is written, as a Python comment (keep the "# ").
shell-script-writing = # Writing the script…

## What the panels a class link can hide are called (its checkboxes, after "Hide")

class-hide-code = PyTorch panel
class-hide-settings = sizes and settings
class-hide-learn = learning controls
class-hide-share = sharing bar

## The PyTorch panel (src/code_panel.rs)

code-title = PyTorch: the same numbers in Python
code-hint = Run it with PyTorch: it builds these tensors (from the seed where the seed gives them, bit for bit), and prints the output, the loss and every .grad shown here. The notebook has the same code in steps, each with what the scene says of it.
code-copy = Copy code
code-download = Download notebook
code-cancel = Cancel
# Label of the progress bar while a file is written.
code-writing-file = Writing the file
# Label of the box with the script.
code-pytorch-code = PyTorch code
code-writing-script = Writing the script with every number, in the background…
code-writing-notebook = Writing the notebook with every number, in the background…
code-copied = Copied.
# $error says why (code-no-background-copy, code-refused, shell-cancelled, …).
code-not-copied = Not copied: { $error }.
code-select = Select the code and copy it.
# $error says why (code-refused, shell-cancelled, …).
code-not-downloaded = Not downloaded: { $error }.
# $name is the file's name, e.g. rowflow-linear.ipynb.
code-downloaded = Downloaded { $name }.
code-download-refused = The browser refused the download.
code-no-background-copy = this browser copies no file written in the background
code-refused = the browser refused it

## Sharing (src/share_panel.rs)

share-label = Share
share-copy-link = Copy link
share-export = Export file
share-import = Import file
# Before the box with the link.
share-link = Link to this scene{" "}
share-copied = Copied.
share-select = Select the link and copy it.
# $size is a size such as "2.3 MB". "Export file" is the button share-export.
share-too-large = This scene is too large for a link ({ $size }; a link holds at most 2 MiB): Export file keeps it whole.
# $size is a size such as "40 KB". "Export file" is the button share-export.
share-long = This link is { $size } long; mail and chat apps may cut it, so Export file is safer.
share-download-refused = the browser refused the download
share-not-text = it is not a text file
# $from is link, file or lesson: what replaced the scene. Followed by share-kept and its button, when there is work to bring back.
share-opened = This scene came from a { $from }.{" "}
# Followed by the button share-back.
share-kept = Your own work is kept:{" "}
share-back = Back to my work
# $from is link, file, export, lesson or saved-work (the work share-back brings back); $error says why.
share-refused = This { $from ->
        [saved-work] saved work
       *[other] { $from }
    } could not be opened: { $error }. Nothing was changed.
# Followed by the button share-back.
share-elsewhere = This scene changed in another tab, and this tab shows that work now. Your own work from this tab is kept:{" "}
share-restored = Your own work is back.
# $error says why; $key is where the work is kept in the browser's storage (e.g. rowflow.linear). Followed by the button share-download-it.
share-unreadable = Your saved work for this scene could not be read ({ $error }). It is kept in this browser under { $key }.unreadable; the scene starts from its first preset.{" "}
share-download-it = Download it
# $error says why (one of the save- messages). Followed by the button share-export.
share-unsaved = Not saved: { $error } — Export to a file keeps your work.{" "}

## A link for a class (src/class_link.rs)

class-title = Link for a class
class-hide = Hide
class-present = Open in projection mode
class-copy = Copy class link
# Before the box with the link.
class-link = Class link{" "}
# "Export file" is the button share-export.
class-too-large = This scene is too large for a link: Export file keeps it whole.

## Why work was not saved or opened (src/storage.rs); each is said inside another sentence (share-unsaved, share-refused, share-unreadable)

save-no-window = there is no window
save-not-allowed = this browser does not let rowflow keep anything here
# $size is a size such as "2.3 MB".
save-full-needs = this browser's storage is full (this scene needs { $size })
save-full = this browser's storage is full
save-refused = the browser refused to store it
save-crashed = it stopped rowflow with a bug as it opened
# $error is save-not-set-aside.
save-other-tab = this scene changed in another tab, and { $error }
# $error says why it cannot be read.
save-other-tab-unreadable = this scene was saved in another tab in a form this tab cannot read ({ $error }), so nothing here is saved over it; reload this tab to open it
# $error: why the saved work could not be read; $reason: why it could not be kept aside.
save-not-kept-aside = { $error }; it could not be kept aside ({ $reason }), so nothing is saved over it
save-gone = it is no longer there
# $error says why; $key is where it is kept in the browser's storage (e.g. rowflow.linear.previous).
save-no-longer-reads = it no longer reads as this scene ({ $error }); it stays in this browser under { $key }
# $error says why (save-full, save-refused, …).
save-not-set-aside = your own work could not be set aside first ({ $error }); export it to a file, then try again

## The page shown after a bug (src/crash.rs)

crash-title = rowflow stopped because of a bug
crash-lede = This is rowflow's fault, not something you did. Every change you made up to the last one was saved in this browser, so reloading brings your work back.
crash-fresh-lede = It stopped as your saved work for this scene opened, so a reload may stop again. Starting the scene fresh sets that work aside in this browser, where you can still download it.
crash-reload = Reload my saved work
crash-download = Download my saved work
crash-fresh = Start this scene fresh
crash-report = What went wrong, for a bug report

## The app's pages (src/app.rs, src/more.rs)

app-not-found-title = No such page
# Followed by a link to the start page (app-not-found-start), then app-not-found-end.
app-not-found = This link names no scene. Pick one above, or go to the{" "}
app-not-found-start = start
app-not-found-end = .
app-unloaded-title = This scene did not arrive
app-unloaded = Its part of rowflow could not be downloaded (the network, or a new version of the site). Nothing you made is lost.
app-try-again = Try again
# Why a scene's text was not read or its script not written; said inside another sentence.
more-unloaded = its part of rowflow could not be downloaded (the network, or a new version of the site)
