/* templates/flamegraph.js — placeholder until the interactive templates land */
"use strict";
