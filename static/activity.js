// activity.js — the task page's upload form, enhanced (issue 29 item 4).
//
// The form works without it: a plain multipart POST, answered with a redirect or the page with
// the message. With it, a file can be dropped on the form ([data-upload-form]), and the upload
// shows its progress (<progress data-upload-progress>). The answer (the task page after the
// redirect, or the page with the refusal) replaces the page's main content, so the flash or the
// message shows as without the script. Any failure falls back to the plain post.
(function () {
  "use strict";
  if (!("FormData" in window) || !("DOMParser" in window) || !("XMLHttpRequest" in window)) {
    return;
  }
  var FORM = "[data-upload-form]";

  function showAnswer(xhr) {
    var ct = xhr.getResponseHeader("Content-Type") || "";
    if (ct.indexOf("text/html") !== 0) {
      return false;
    }
    var fresh = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var main = document.querySelector("main");
    var next = fresh.querySelector("main");
    if (!main || !next) {
      return false;
    }
    main.replaceWith(document.importNode(next, true));
    if (xhr.responseURL && xhr.status < 400) {
      history.replaceState(null, "", xhr.responseURL);
    }
    var target = document.getElementById("activity-heading");
    if (target) {
      target.scrollIntoView();
    }
    return true;
  }

  function send(form) {
    var progress = form.querySelector("[data-upload-progress]");
    var button = form.querySelector('button[type="submit"]');
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.setRequestHeader("Accept", "text/html");
    if (progress) {
      progress.hidden = false;
      progress.value = 0;
      xhr.upload.addEventListener("progress", function (e) {
        if (e.lengthComputable) {
          progress.value = Math.round((e.loaded / e.total) * 100);
        }
      });
    }
    if (button) {
      button.disabled = true;
    }
    form.setAttribute("aria-busy", "true");
    xhr.onload = function () {
      if (!showAnswer(xhr)) {
        form.submit(); // not a page: let the browser show what the server says
      }
    };
    xhr.onerror = function () {
      form.submit();
    };
    // FormData keeps the document order: the hidden fields (token first) before the file.
    xhr.send(new FormData(form));
  }

  document.addEventListener("submit", function (e) {
    var form = e.target && e.target.closest && e.target.closest(FORM);
    if (!form) {
      return;
    }
    e.preventDefault();
    send(form);
  });

  // Drag and drop: a file dropped on the form is chosen and sent.
  ["dragenter", "dragover"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      var form = e.target && e.target.closest && e.target.closest(FORM);
      if (form && e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types, "Files") >= 0) {
        e.preventDefault();
        form.classList.add("activity__form--drop");
      }
    });
  });
  document.addEventListener("dragleave", function (e) {
    var form = e.target && e.target.closest && e.target.closest(FORM);
    if (form && !form.contains(e.relatedTarget)) {
      form.classList.remove("activity__form--drop");
    }
  });
  document.addEventListener("drop", function (e) {
    var form = e.target && e.target.closest && e.target.closest(FORM);
    if (!form || !e.dataTransfer || e.dataTransfer.files.length === 0) {
      return;
    }
    e.preventDefault();
    form.classList.remove("activity__form--drop");
    var input = form.querySelector('input[type="file"]');
    if (!input) {
      return;
    }
    // One file per upload: the first of those dropped.
    var one = e.dataTransfer.files;
    if (one.length > 1 && "DataTransfer" in window) {
      var dt = new DataTransfer();
      dt.items.add(one[0]);
      one = dt.files;
    }
    input.files = one;
    if (form.reportValidity()) {
      send(form);
    }
  });
})();
