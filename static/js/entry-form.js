/* The table link's form for the next deal, made on the phone (used by entry.js).
 *
 * While deals wait to be sent the office cannot send the next form, so it is made here
 * from the form on the page: a new client id, the deal's number, who deals and who plays
 * (3.2.1, 3.2.7: at a table of four the dealer sits out). That is seating, as
 * scoring/sheet.py's dealer_seat and active_seats, computed from the table's size; the
 * value of a deal is the office's alone (scoring/rules.py), so nothing here values one.
 * Its words come from the page: the form's own labels and #connection's data attributes.
 *
 * window.TableLinkForm({text, players, size, deals}) gives the functions entry.js uses.
 */
(function () {
  "use strict";

  function remove(element) {
    element.parentNode.removeChild(element);
  }

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16)); // plain HTTP: no randomUUID
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function labelOf(input) {
    var label = input.closest("label");
    return label ? label.textContent.trim() : input.value;
  }

  window.TableLinkForm = function (table) {
    var text = table.text;
    var players = table.players;
    var size = table.size;

    function entrySection(sheet) {
      return (sheet || document.getElementById("sheet")).querySelector("section.entry");
    }

    function formOf(section) {
      return section ? section.querySelector("form[data-queue]") : null;
    }

    function numberOf(section) {
      var form = formOf(section);
      return form ? parseInt(form.elements.number.value, 10) : null;
    }

    function dealerSeat(number) {
      return ((number - 1) % size) + 1;
    }

    function activeSeats(number) {
      var seats = [];
      for (var seat = 1; seat <= size; seat += 1) if (size === 3 || seat !== dealerSeat(number)) seats.push(seat);
      return seats;
    }

    function previewSays(section, words) {
      var box = section.querySelector("#preview");
      var line = document.createElement("p");
      line.className = "muted";
      line.textContent = words;
      box.textContent = "";
      box.appendChild(line);
    }

    function heading(section, number) {
      var title = section.querySelector("h2");
      title.textContent = format(text.deal, { number: number }) + " ";
      var note = document.createElement("small");
      note.className = "muted";
      note.textContent = "· " + format(text.dealer, { dealer: players[dealerSeat(number) - 1] }) +
        (size === 4 ? " " + text.sitsOut : "");
      title.appendChild(note);
    }

    /* The declarer's pills: the seats that play this deal (the markup of forms.PlainRadioSelect). */
    function declarers(section, number) {
      var pills = section.querySelector("#id_declarer_seat");
      pills.textContent = "";
      activeSeats(number).forEach(function (seat, index) {
        var input = document.createElement("input");
        input.type = "radio";
        input.name = "declarer_seat";
        input.value = seat;
        input.id = "id_declarer_seat_" + index;
        var label = document.createElement("label");
        label.htmlFor = input.id;
        label.appendChild(input);
        label.appendChild(document.createTextNode(" " + players[seat - 1]));
        var wrapper = document.createElement("div");
        wrapper.appendChild(label);
        pills.appendChild(wrapper);
      });
    }

    function blank(section, number, offline) {
      var form = formOf(section);
      form.elements.number.value = number;
      form.elements.client_id.value = uuid();
      if (form.elements.version) form.elements.version.value = "";
      section.querySelectorAll(".errorlist, p.rule, .refused-deal").forEach(remove);
      heading(section, number);
      declarers(section, number);
      Array.prototype.forEach.call(form.elements, function (field) {
        field.removeAttribute("aria-invalid");
        if (field.type === "radio") {
          field.checked = field.defaultChecked = field.name === "tops_kind" && field.value === text.topsKind;
        } else if (field.type === "checkbox") {
          field.checked = field.defaultChecked = false;
        } else if (field.type === "number" || field.type === "text") {
          field.value = field.defaultValue = "";
        } else if (field.tagName === "SELECT") {
          field.selectedIndex = 0;
        }
      });
      previewSays(section, offline ? text.valued : text.preview);
    }

    /* The page's form asks for deal ``number`` (made from the form there, if need be). */
    function show(number, offline) {
      var section = entrySection();
      if (!formOf(section)) return; // no form: the sheet is closed, confirmed or complete
      if (number > table.deals) {
        remove(section); // every deal of the series is entered (some wait to be sent)
        return;
      }
      // The deal asked for is in the form: what is typed there stays, a live value's
      // refusal too; only a refused waiting deal's form (corrected, entered) makes way.
      if (numberOf(section) === number && !section.querySelector(".refused-deal")) return;
      var fresh = section.cloneNode(true);
      blank(fresh, number, offline);
      section.parentNode.replaceChild(fresh, section);
      window.htmx.process(fresh);
    }

    /* What the waiting row shows: the chosen pills and numbers, in the form's own words. */
    function describe(form, passed) {
      if (passed) return { passed: form.querySelector("button.passed").textContent.trim() };
      function chosen(name) { return form.querySelector("input[name=" + name + "]:checked"); }
      var declarer = chosen("declarer_seat");
      var contract = chosen("contract");
      var kind = chosen("tops_kind");
      var parts = [];
      if (contract) parts.push(labelOf(contract));
      if (kind && form.elements.tops.value) parts.push(labelOf(kind) + " " + form.elements.tops.value);
      form.querySelectorAll(".flags input:checked").forEach(function (flag) { parts.push(labelOf(flag)); });
      return { declarer: declarer ? labelOf(declarer) : "", game: parts.join(" ") };
    }

    /* The fields a scorekeeper types or taps (not the form's own: number, client id, version). */
    function entered(form) {
      return Array.prototype.filter.call(form.elements, function (field) {
        return field.name && ["number", "client_id", "version", "csrfmiddlewaretoken"].indexOf(field.name) < 0;
      });
    }

    /* Whether anything was typed or tapped for this deal (the preset "with" aside). */
    function typed(section) {
      return entered(formOf(section)).some(function (field) {
        if (field.type === "radio") return field.checked && field.name !== "tops_kind";
        if (field.type === "checkbox") return field.checked;
        if (field.tagName === "BUTTON") return false;
        return field.value !== "";
      });
    }

    /* The typed and tapped values, to put back later (restore). */
    function values(section) {
      var kept = [];
      entered(formOf(section)).forEach(function (field) {
        if (field.tagName === "BUTTON") return;
        if ((field.type === "radio" || field.type === "checkbox") && !field.checked) return;
        kept.push([field.name, field.value]);
      });
      return kept;
    }

    function restore(section, kept, online) {
      var form = formOf(section);
      if (!form) return;
      kept.forEach(function (pair) {
        var fields = form.querySelectorAll('[name="' + pair[0] + '"]');
        Array.prototype.forEach.call(fields, function (field) {
          if (field.type === "radio" || field.type === "checkbox") {
            if (field.value === pair[1]) field.checked = true;
          } else if (field.tagName !== "BUTTON") {
            field.value = pair[1];
          }
        });
      });
      // The live value only once the draft has its declarer: a draft without one would come
      // back with "choose the declarer" in red before it is touched.
      var chosen = form.querySelector("input[name=declarer_seat]:checked");
      if (online && chosen && window.htmx) window.htmx.trigger(section.querySelector(".fields"), "change");
      else previewSays(section, online ? text.preview : text.valued);
    }

    /* The first field whose number is out of its range by the rules (the office's
     * #entry-checks: the engine's ranges and messages), as {field, message}; else null. */
    function check(form, rules) {
      var contract = form.querySelector("input[name=contract]:checked");
      function number(name) {
        var field = form.elements[name];
        var raw = field ? field.value.trim() : "";
        return /^-?\d+$/.test(raw) ? { field: field, raw: raw, value: parseInt(raw, 10) } : null;
      }
      function problem(found, message) {
        return { field: found.field, message: format(message, { value: found.raw }) };
      }
      var names = ["declarer_points", "opponents_points", "declarer_tricks"];
      for (var i = 0; i < names.length; i += 1) {
        var found = number(names[i]);
        if (found && (found.value < 0 || found.value > rules[names[i]].max)) return problem(found, rules[names[i]].message);
      }
      var points = number("declarer_points");
      var others = number("opponents_points");
      if (points && others && points.value + others.value !== 120) return { field: others.field, message: rules.points_sum };
      if (!contract) return null;
      var tops = number("tops");
      if (contract.value === "null") {
        return form.elements.tops.value.trim() ? { field: form.elements.tops, message: rules.tops["null"] } : null;
      }
      var kind = rules.tops[contract.value === "grand" ? "grand" : "suit"];
      if (!form.elements.tops.value.trim()) return { field: form.elements.tops, message: kind.missing };
      if (tops && tops.value > kind.max) return problem(tops, kind.over);
      if (tops && tops.value < 1) return problem(tops, kind.under);
      return null;
    }

    /* Say why the deal cannot wait to be sent: beside "Enter deal", as the office would. */
    function refuse(form, problem) {
      var box = form.querySelector("#preview");
      var list = document.createElement("ul");
      list.className = "errorlist rule";
      var item = document.createElement("li");
      item.textContent = problem.message;
      list.appendChild(item);
      box.textContent = "";
      box.appendChild(list);
      problem.field.setAttribute("aria-invalid", "true");
      problem.field.focus({ preventScroll: true });
      list.scrollIntoView({ block: "center" }); // the rule, beside "Enter deal", in view
    }

    return {
      typed: typed,
      values: values,
      restore: restore,
      check: check,
      refuse: refuse,
      entrySection: entrySection,
      formOf: formOf,
      numberOf: numberOf,
      previewSays: previewSays,
      show: show,
      describe: describe,
    };
  };
})();
