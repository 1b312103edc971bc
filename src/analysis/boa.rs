//! A conservative static proof that a script keeps no module state that
//! its steps could share (explore mode's independence relation).
//!
//! Module state is per server (SCRIPTING.md §2), so by default every step
//! that runs JavaScript on a server writes that server's realm and two
//! steps of one server are dependent. This module proves, for some
//! scripts, that no JavaScript value survives from one step to another
//! except through what is footprinted anyway (the world, the strategies'
//! locks and sections in Rust, the clock) or what belongs to one request
//! (its own closures and promises: the run then footprints the request,
//! `Object::ScriptRequest`). The proof is syntactic and errs towards "no":
//! whatever it does not recognise keeps the realm dependent.
//!
//! What a step's JavaScript may name, by identifier:
//! - bindings declared inside some function (parameters, `let`, `const`,
//!   `var`, inner functions, `catch`): per call, so per request or per
//!   timer callback. Such a name may not also be declared at the top level
//!   or be a global (so a reference outside the binding's scope cannot
//!   reach shared state by name);
//! - a top-level `function`/`async function` declaration, only called
//!   (never read as a value, never assigned): it captures only the global
//!   scope;
//! - a top-level `const` bound to a primitive literal;
//! - the world's globals, only called or as the base of an allowed method
//!   call (`db.findOne(...)`, `Math.max(...)`, `JSON.stringify(...)`), and
//!   `config.NAME` (frozen, primitive values); `undefined`, `NaN`,
//!   `Infinity`.
//!
//! And never: `this`, `arguments`, `super`, classes, generators, `with`,
//! `delete`, tagged templates, `new.target`, `import`, a property write
//! (`a.b = v`, `a.b++`, a destructuring assignment), a computed member
//! access other than a literal key, a computed property name, or the
//! member names that reach shared objects (`__proto__`, any name starting
//! with `__`, `constructor`, `prototype`, `caller`, `callee`, `call`,
//! `apply`, `bind`). So a step's code can only hold fresh values (literals,
//! `req`, JSON copies from the world, results of the allowed calls) and
//! shared built-in functions it cannot modify.
//!
//! Top-level code (depth 0) runs once, at load, and may use its own
//! top-level names freely; closures it creates (timer callbacks) run in
//! steps of no request, all dependent on each other.
//!
//! Outside the JavaScript, the prelude's `singleflight` keeps its results
//! in a module-level `Map`: a script that names `singleflight`, or runs
//! under `strategy=single-flight`, stays dependent. `Math.random` (one
//! seeded stream per run) and `setTimeout`'s ids (one counter per run)
//! are footprinted by their natives. A name the analysis missed (an
//! assignment to an undeclared name creates a global in sloppy code) is
//! caught at run time: the run checks that no global appears after load
//! besides the top-level declarations, and that no step adds one
//! (the script run's `globals_changed`); if one does, explore searches again
//! with every step of a server dependent.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use boa_ast::declaration::{Binding, LexicalDeclaration};
use boa_ast::expression::access::{PropertyAccess, PropertyAccessField, SimplePropertyAccess};
use boa_ast::expression::literal::LiteralKind;
use boa_ast::expression::literal::{ObjectMethodDefinition, PropertyDefinition};
use boa_ast::expression::operator::assign::AssignTarget;
use boa_ast::expression::operator::unary::UnaryOp;
use boa_ast::expression::operator::update::UpdateTarget;
use boa_ast::expression::Expression;
use boa_ast::expression::OptionalOperationKind;
use boa_ast::function::{
    ArrowFunction, AsyncArrowFunction, AsyncFunctionDeclaration, AsyncFunctionExpression,
    AsyncGeneratorDeclaration, AsyncGeneratorExpression, ClassDeclaration, ClassExpression,
    FunctionDeclaration, FunctionExpression, GeneratorDeclaration, GeneratorExpression,
};
use boa_ast::operations::{bound_names, lexically_declared_names, var_declared_names};
use boa_ast::property::{MethodDefinitionKind, PropertyName};
use boa_ast::scope::Scope;
use boa_ast::statement::iteration::IterableLoopInitializer;
use boa_ast::statement::Statement;
use boa_ast::visitor::{VisitWith, Visitor};
use boa_ast::{Declaration, StatementListItem};
use boa_interner::{Interner, Sym};
use boa_parser::Parser;
use boa_parser::Source;

/// Globals a step may call directly (`guard(...)`, `new Map()`).
const CALLABLE: &[&str] = &[
    "guard",
    "sleep",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "clearTimeout",
    "clearInterval",
    "clearImmediate",
    "queueMicrotask",
    "count",
    "String",
    "Number",
    "Boolean",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "Error",
    "TypeError",
    "RangeError",
    "Promise",
    "Array",
    "Map",
    "Set",
    "EventEmitter",
];

/// Globals whose listed methods a step may call (`db.findOne(...)`).
const METHODS: &[(&str, &[&str])] = &[
    (
        "cache",
        &[
            "get", "getStale", "set", "add", "delete", "deleteIf", "incr", "preset",
        ],
    ),
    (
        "db",
        &["table", "find", "findOne", "insert", "update", "delete"],
    ),
    ("lock", &["acquire", "release"]),
    ("console", &["log", "info", "warn", "error"]),
    (
        "Math",
        &[
            "abs", "ceil", "floor", "round", "max", "min", "trunc", "sign", "sqrt", "pow", "log",
            "exp", "random",
        ],
    ),
    ("JSON", &["stringify", "parse"]),
    (
        "Promise",
        &["all", "allSettled", "race", "any", "resolve", "reject"],
    ),
    ("Array", &["isArray", "from", "of"]),
    (
        "Number",
        &[
            "isInteger",
            "isSafeInteger",
            "isFinite",
            "isNaN",
            "parseInt",
            "parseFloat",
        ],
    ),
    ("Object", &["keys", "values", "entries"]),
];

/// Global values a step may read.
const VALUES: &[&str] = &["undefined", "NaN", "Infinity"];

/// Member names that lead to shared objects or call with a chosen `this`.
fn dangerous(name: &str) -> bool {
    name.starts_with("__")
        || matches!(
            name,
            "constructor" | "prototype" | "caller" | "callee" | "call" | "apply" | "bind"
        )
}

/// Why `code` may keep module state, or `None` when it provably keeps none
/// (see the module's documentation). `globals`: the names the realm's
/// global object has before the script runs (the built-ins and the
/// world's globals).
/// `added`: the globals the script's top level added (each must be a
/// top-level `var` or function declaration, not an implicit global).
pub fn module_state(
    code: &str,
    single_flight: bool,
    globals: &[String],
    added: &[String],
) -> Option<String> {
    if single_flight {
        return Some("strategy=single-flight shares results through the prelude".into());
    }
    let mut interner = Interner::default();
    let mut parser = Parser::new(Source::from_bytes(code));
    let script = match parser.parse_script(&Scope::new_global(), &mut interner) {
        Ok(script) => script,
        Err(error) => return Some(format!("not parsed: {error}")),
    };
    let name = |sym: Sym| interner.resolve_expect(sym).to_string();

    let statements = script.statements();
    let mut top: HashSet<String> = var_declared_names(statements)
        .into_iter()
        .map(name)
        .collect();
    top.extend(lexically_declared_names(statements).into_iter().map(name));
    if let Some(extra) = added.iter().find(|name| !top.contains(*name)) {
        return Some(format!("the top level created the global `{extra}`"));
    }

    // Top-level functions and primitive consts, each declared once.
    let mut declared: HashMap<String, usize> = HashMap::new();
    let mut functions = HashSet::new();
    let mut constants = HashSet::new();
    for item in statements.iter() {
        match item {
            StatementListItem::Declaration(declaration) => {
                let names: Vec<Sym> = match declaration.as_ref() {
                    Declaration::FunctionDeclaration(f) => {
                        functions.insert(name(f.name().sym()));
                        bound_names(f)
                    }
                    Declaration::AsyncFunctionDeclaration(f) => {
                        functions.insert(name(f.name().sym()));
                        bound_names(f)
                    }
                    Declaration::Lexical(LexicalDeclaration::Const(list)) => {
                        for variable in list.as_ref() {
                            if let (Binding::Identifier(id), Some(Expression::Literal(literal))) =
                                (variable.binding(), variable.init())
                            {
                                if !matches!(literal.kind(), LiteralKind::BigInt(_)) {
                                    constants.insert(name(id.sym()));
                                }
                            }
                        }
                        bound_names(declaration.as_ref())
                    }
                    other => bound_names(other),
                };
                for sym in names {
                    *declared.entry(name(sym)).or_default() += 1;
                }
            }
            StatementListItem::Statement(statement) => {
                for sym in var_declared_names(statement.as_ref()) {
                    *declared.entry(name(sym)).or_default() += 1;
                }
            }
        }
    }
    functions.retain(|f| declared.get(f) == Some(&1));
    constants.retain(|c| declared.get(c) == Some(&1));

    // Every name bound inside a function, and at depth 0 outside `top`.
    let mut collect = Collect {
        interner: &interner,
        depth: 0,
        local: HashSet::new(),
        top_level: HashSet::new(),
    };
    if let ControlFlow::Break(reason) = script.visit_with(&mut collect) {
        return Some(reason);
    }
    let Collect {
        local, top_level, ..
    } = collect;
    let top_block: HashSet<String> = top_level.difference(&top).cloned().collect();
    let global_names: HashSet<&str> = globals
        .iter()
        .map(String::as_str)
        .chain(CALLABLE.iter().copied())
        .chain(METHODS.iter().map(|(name, _)| *name))
        .chain(VALUES.iter().copied())
        .chain(["config", "singleflight", "globalThis", "arguments"])
        .collect();
    for name in &local {
        if top.contains(name) || top_block.contains(name) {
            return Some(format!(
                "`{name}` is declared both at the top level and in a function"
            ));
        }
        if global_names.contains(name.as_str()) {
            return Some(format!("the local `{name}` shadows a global"));
        }
    }

    let mut check = Check {
        interner: &interner,
        depth: 0,
        local: &local,
        top: &top,
        top_block: &top_block,
        functions: &functions,
        constants: &constants,
    };
    match script.visit_with(&mut check) {
        ControlFlow::Break(reason) => Some(reason),
        ControlFlow::Continue(()) => None,
    }
}

/// Collects the names bound inside functions (`local`) and at depth 0.
struct Collect<'i> {
    interner: &'i Interner,
    depth: u32,
    local: HashSet<String>,
    top_level: HashSet<String>,
}

impl Collect<'_> {
    fn bind(&mut self, sym: Sym) {
        let name = self.interner.resolve_expect(sym).to_string();
        if self.depth > 0 {
            self.local.insert(name);
        } else {
            self.top_level.insert(name);
        }
    }

    fn function<'a, N: VisitWith>(&mut self, name: Option<Sym>, node: &'a N) -> ControlFlow<String>
    where
        Self: Visitor<'a, BreakTy = String>,
    {
        self.depth += 1;
        if let Some(name) = name {
            self.bind(name);
        }
        let flow = node.visit_with(self);
        self.depth -= 1;
        flow
    }
}

impl<'a> Visitor<'a> for Collect<'_> {
    type BreakTy = String;

    fn visit_binding(&mut self, node: &'a Binding) -> ControlFlow<String> {
        for sym in bound_names(node) {
            self.bind(sym);
        }
        node.visit_with(self)
    }

    fn visit_function_declaration(&mut self, node: &'a FunctionDeclaration) -> ControlFlow<String> {
        // The declaration's name belongs to the enclosing scope.
        self.bind(node.name().sym());
        self.function(None, node)
    }

    fn visit_async_function_declaration(
        &mut self,
        node: &'a AsyncFunctionDeclaration,
    ) -> ControlFlow<String> {
        self.bind(node.name().sym());
        self.function(None, node)
    }

    fn visit_function_expression(&mut self, node: &'a FunctionExpression) -> ControlFlow<String> {
        self.function(node.name().map(|n| n.sym()), node)
    }

    fn visit_async_function_expression(
        &mut self,
        node: &'a AsyncFunctionExpression,
    ) -> ControlFlow<String> {
        self.function(node.name().map(|n| n.sym()), node)
    }

    fn visit_arrow_function(&mut self, node: &'a ArrowFunction) -> ControlFlow<String> {
        self.function(None, node)
    }

    fn visit_async_arrow_function(&mut self, node: &'a AsyncArrowFunction) -> ControlFlow<String> {
        self.function(None, node)
    }

    fn visit_object_method_definition(
        &mut self,
        node: &'a ObjectMethodDefinition,
    ) -> ControlFlow<String> {
        self.function(None, node)
    }

    fn visit_class_declaration(&mut self, _: &'a ClassDeclaration) -> ControlFlow<String> {
        ControlFlow::Break("a class".into())
    }

    fn visit_class_expression(&mut self, _: &'a ClassExpression) -> ControlFlow<String> {
        ControlFlow::Break("a class".into())
    }
}

/// Checks every use of a name and every member access (module docs).
struct Check<'i, 's> {
    interner: &'i Interner,
    depth: u32,
    local: &'s HashSet<String>,
    top: &'s HashSet<String>,
    top_block: &'s HashSet<String>,
    functions: &'s HashSet<String>,
    constants: &'s HashSet<String>,
}

fn no<T>(reason: impl Into<String>) -> ControlFlow<String, T> {
    ControlFlow::Break(reason.into())
}

impl<'a> Check<'_, '_> {
    fn name(&self, sym: Sym) -> String {
        self.interner.resolve_expect(sym).to_string()
    }

    fn is_local(&self, name: &str) -> bool {
        self.local.contains(name)
    }

    /// At the top level's own code, its names are free to use.
    fn top_level_own(&self, name: &str) -> bool {
        self.depth == 0 && (self.top.contains(name) || self.top_block.contains(name))
    }

    /// `name` read as a value.
    fn read(&self, name: &str) -> ControlFlow<String> {
        if self.is_local(name)
            || self.top_level_own(name)
            || self.constants.contains(name)
            || (!self.top.contains(name) && VALUES.contains(&name))
        {
            return ControlFlow::Continue(());
        }
        no(format!("`{name}` may be shared between requests"))
    }

    /// `name` assigned.
    fn write(&self, name: &str) -> ControlFlow<String> {
        if self.is_local(name)
            || (self.top_level_own(name)
                && !self.functions.contains(name)
                && !self.constants.contains(name))
        {
            return ControlFlow::Continue(());
        }
        no(format!("an assignment to `{name}`"))
    }

    fn field(&mut self, field: &'a PropertyAccessField) -> ControlFlow<String> {
        match field {
            PropertyAccessField::Const(id) => {
                let name = self.name(id.sym());
                if dangerous(&name) {
                    return no(format!("the member `{name}`"));
                }
                ControlFlow::Continue(())
            }
            PropertyAccessField::Expr(expression) => match expression.as_ref() {
                Expression::Literal(literal) => match literal.kind() {
                    LiteralKind::Int(_) | LiteralKind::Num(_) => ControlFlow::Continue(()),
                    LiteralKind::String(sym) if !dangerous(&self.name(*sym)) => {
                        ControlFlow::Continue(())
                    }
                    _ => no("a computed member"),
                },
                _ => no("a computed member"),
            },
        }
    }

    /// A member read (not called, not written).
    fn access(&mut self, access: &'a PropertyAccess) -> ControlFlow<String> {
        let PropertyAccess::Simple(simple) = access else {
            return no("a private or super member");
        };
        self.simple(simple)
    }

    fn simple(&mut self, simple: &'a SimplePropertyAccess) -> ControlFlow<String> {
        self.field(simple.field())?;
        if let Expression::Identifier(id) = simple.target() {
            let name = self.name(id.sym());
            if !self.is_local(&name) && !self.top_level_own(&name) && !self.top.contains(&name) {
                // A global's member: only `config`'s primitives.
                return if name == "config" {
                    ControlFlow::Continue(())
                } else {
                    no(format!("a member of `{name}` read as a value"))
                };
            }
        }
        self.visit_expression(simple.target())
    }

    /// The function of a call or `new`.
    fn callee(&mut self, callee: &'a Expression) -> ControlFlow<String> {
        match callee {
            Expression::Identifier(id) => {
                let name = self.name(id.sym());
                if self.is_local(&name)
                    || self.top_level_own(&name)
                    || self.functions.contains(&name)
                    || (!self.top.contains(&name) && CALLABLE.contains(&name.as_str()))
                {
                    return ControlFlow::Continue(());
                }
                no(format!("a call of `{name}`"))
            }
            Expression::PropertyAccess(PropertyAccess::Simple(simple)) => {
                if let Expression::Identifier(id) = simple.target() {
                    let base = self.name(id.sym());
                    if !self.is_local(&base) && !self.top_level_own(&base) {
                        if self.top.contains(&base) {
                            return no(format!("a method of the top-level `{base}`"));
                        }
                        let PropertyAccessField::Const(method) = simple.field() else {
                            return no("a computed method");
                        };
                        let method = self.name(method.sym());
                        let allowed = METHODS.iter().any(|(global, methods)| {
                            *global == base && methods.contains(&method.as_str())
                        });
                        if allowed {
                            return ControlFlow::Continue(());
                        }
                        return no(format!("a call of `{base}.{method}`"));
                    }
                }
                self.simple(simple)
            }
            other => self.visit_expression(other),
        }
    }

    fn function<N: VisitWith>(&mut self, node: &'a N) -> ControlFlow<String>
    where
        Self: Visitor<'a, BreakTy = String>,
    {
        self.depth += 1;
        let flow = node.visit_with(self);
        self.depth -= 1;
        flow
    }
}

impl<'a> Visitor<'a> for Check<'_, '_> {
    type BreakTy = String;

    fn visit_expression(&mut self, node: &'a Expression) -> ControlFlow<String> {
        match node {
            Expression::This(_) => no("`this`"),
            Expression::Identifier(id) => self.read(&self.name(id.sym())),
            Expression::Call(call) => {
                self.callee(call.function())?;
                for arg in call.args() {
                    self.visit_expression(arg)?;
                }
                ControlFlow::Continue(())
            }
            Expression::New(new) => {
                self.callee(new.constructor())?;
                for arg in new.arguments() {
                    self.visit_expression(arg)?;
                }
                ControlFlow::Continue(())
            }
            Expression::PropertyAccess(access) => self.access(access),
            Expression::Assign(assign) => {
                match assign.lhs() {
                    AssignTarget::Identifier(id) => self.write(&self.name(id.sym()))?,
                    AssignTarget::Access(_) => return no("a property write"),
                    AssignTarget::Pattern(_) => return no("a destructuring assignment"),
                }
                self.visit_expression(assign.rhs())
            }
            Expression::Update(update) => match update.target() {
                UpdateTarget::Identifier(id) => self.write(&self.name(id.sym())),
                UpdateTarget::PropertyAccess(_) => no("a property write"),
            },
            Expression::Unary(unary) if unary.op() == UnaryOp::Delete => no("`delete`"),
            Expression::Optional(optional) => {
                for operation in optional.chain() {
                    match operation.kind() {
                        OptionalOperationKind::SimplePropertyAccess { field } => {
                            self.field(field)?;
                        }
                        OptionalOperationKind::PrivatePropertyAccess { .. } => {
                            return no("a private member");
                        }
                        OptionalOperationKind::Call { args } => {
                            for arg in args.iter() {
                                self.visit_expression(arg)?;
                            }
                        }
                    }
                }
                match optional.target() {
                    Expression::Identifier(id) if !self.is_local(&self.name(id.sym())) => {
                        no("an optional chain on a shared name")
                    }
                    target => self.visit_expression(target),
                }
            }
            Expression::ClassExpression(_)
            | Expression::SuperCall(_)
            | Expression::ImportCall(_)
            | Expression::NewTarget(_)
            | Expression::ImportMeta(_)
            | Expression::TaggedTemplate(_)
            | Expression::GeneratorExpression(_)
            | Expression::AsyncGeneratorExpression(_)
            | Expression::Yield(_) => no("a class, generator, tagged template or import"),
            Expression::FunctionExpression(f) => self.function(f),
            Expression::AsyncFunctionExpression(f) => self.function(f),
            Expression::ArrowFunction(f) => self.function(f),
            Expression::AsyncArrowFunction(f) => self.function(f),
            other => other.visit_with(self),
        }
    }

    fn visit_statement(&mut self, node: &'a Statement) -> ControlFlow<String> {
        if let Statement::With(_) = node {
            return no("`with`");
        }
        node.visit_with(self)
    }

    fn visit_iterable_loop_initializer(
        &mut self,
        node: &'a IterableLoopInitializer,
    ) -> ControlFlow<String> {
        match node {
            IterableLoopInitializer::Identifier(id) => self.write(&self.name(id.sym())),
            IterableLoopInitializer::Access(_) => no("a property write"),
            IterableLoopInitializer::Pattern(_) => no("a destructuring assignment"),
            other => other.visit_with(self),
        }
    }

    fn visit_property_definition(&mut self, node: &'a PropertyDefinition) -> ControlFlow<String> {
        match node {
            // `{ name }` reads `name`.
            PropertyDefinition::IdentifierReference(id) => self.read(&self.name(id.sym())),
            PropertyDefinition::CoverInitializedName(..) => no("a cover-initialized name"),
            other => other.visit_with(self),
        }
    }

    fn visit_property_name(&mut self, node: &'a PropertyName) -> ControlFlow<String> {
        match node {
            PropertyName::Literal(id) => {
                let name = self.name(id.sym());
                if dangerous(&name) {
                    return no(format!("the property `{name}`"));
                }
                ControlFlow::Continue(())
            }
            PropertyName::Computed(_) => no("a computed property name"),
        }
    }

    fn visit_function_declaration(&mut self, node: &'a FunctionDeclaration) -> ControlFlow<String> {
        self.function(node)
    }

    fn visit_async_function_declaration(
        &mut self,
        node: &'a AsyncFunctionDeclaration,
    ) -> ControlFlow<String> {
        self.function(node)
    }

    fn visit_object_method_definition(
        &mut self,
        node: &'a ObjectMethodDefinition,
    ) -> ControlFlow<String> {
        if !matches!(
            node.kind(),
            MethodDefinitionKind::Ordinary | MethodDefinitionKind::Get | MethodDefinitionKind::Set
        ) {
            return no("a generator method");
        }
        self.function(node)
    }

    fn visit_generator_declaration(&mut self, _: &'a GeneratorDeclaration) -> ControlFlow<String> {
        no("a generator")
    }

    fn visit_async_generator_declaration(
        &mut self,
        _: &'a AsyncGeneratorDeclaration,
    ) -> ControlFlow<String> {
        no("a generator")
    }

    fn visit_generator_expression(&mut self, _: &'a GeneratorExpression) -> ControlFlow<String> {
        no("a generator")
    }

    fn visit_async_generator_expression(
        &mut self,
        _: &'a AsyncGeneratorExpression,
    ) -> ControlFlow<String> {
        no("a generator")
    }

    fn visit_class_declaration(&mut self, _: &'a ClassDeclaration) -> ControlFlow<String> {
        no("a class")
    }

    fn visit_class_expression(&mut self, _: &'a ClassExpression) -> ControlFlow<String> {
        no("a class")
    }
}

#[cfg(test)]
mod tests {
    use super::module_state;

    /// A shipped example's code, read where it is kept.
    fn example(name: &str) -> &'static str {
        match name {
            "ticket" => include_str!("../../examples/scripts/ticket.js"),
            "mutex_map" => include_str!("../../examples/scripts/mutex_map.js"),
            "emitter_lock" => include_str!("../../examples/scripts/emitter_lock.js"),
            "stampede" => include_str!("../../examples/scripts/stampede.js"),
            "ticket_lock" => include_str!("../../examples/scripts/ticket_lock.js"),
            _ => panic!("no example {name}"),
        }
    }

    fn free(code: &str) -> bool {
        module_state(code, false, &[], &[]).is_none()
    }

    #[test]
    fn the_ticket_example_keeps_no_module_state() {
        assert_eq!(module_state(example("ticket"), false, &[], &[]), None);
    }

    #[test]
    fn shared_or_doubtful_code_stays_dependent() {
        for name in ["mutex_map", "emitter_lock", "stampede", "ticket_lock"] {
            let code = example(name);
            assert!(!free(code), "{name}");
        }
        assert!(module_state("async function handle(req) {}", true, &[], &[]).is_some());
        for code in [
            "let n = 0; async function handle(req) { n++; }",
            "const seen = new Set(); async function handle(req) { seen.add(req.user); }",
            "async function handle(req) { globalThis.x = 1; }",
            "async function handle(req) { this.x = 1; }",
            "async function handle(req) { const o = {}; o.__proto__.x = 1; }",
            "async function handle(req) { const o = {}; const k = 'constructor'; o[k].x = 1; }",
            "async function handle(req) { req.x = 1; }",
            "async function handle(req) { x = 1; }",
            "async function handle(req) { const f = handle; }",
            "async function handle(req) { await singleflight('k', () => 1); }",
            "async function handle(req) { const p = [].push; p.call(handle, 1); }",
            "function f() { return 1; } f = () => 2; async function handle(req) { f(); }",
            "const f = (() => { let n = 0; return () => n++; })(); async function handle(req) { f(); }",
            "async function handle(req) { Date.now(); }",
            "const LOCKS = []; async function handle(req) { const o = { LOCKS }; o.LOCKS.push(1); }",
            "async function handle(req) { const o = { handle }; }",
            "async function handle(req) { delete req.user; }",
            "async function handle(req) { class A {} }",
            "var n = 0; async function handle(req) { n += 1; }",
        ] {
            assert!(!free(code), "{code}");
        }
    }

    #[test]
    fn locals_and_world_calls_are_free() {
        for code in [
            "const N = 3; async function handle(req) { let n = N; n++; const rows = await db.find('t', { user: req.user }); for (const row of rows) { n += row.x; } count('n', n); }",
            "async function f(a) { return a + 1; } async function handle(req) { const x = await f(req.user); await guard(`k${x}`, async () => { await cache.set('a', x); }); }",
            "async function handle(req) { const m = new Map(); m.set(1, 2); await sleep(1); return Math.max(1, m.get(1)); }",
        ] {
            assert_eq!(module_state(code, false, &[], &[]), None, "{code}");
        }
    }
}
