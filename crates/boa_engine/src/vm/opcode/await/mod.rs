use super::RegisterOperand;
use crate::{
    Context, JsArgs, JsExpect, JsResult, JsValue,
    builtins::{
        Promise,
        async_generator::AsyncGenerator,
        generator::GeneratorContext,
        promise::{PromiseCapability, ResolvingFunctions},
    },
    error::PanicError,
    js_string,
    native_function::NativeFunction,
    object::{FunctionObjectBuilder, JsObject},
    vm::{CompletionRecord, GeneratorResumeKind, opcode::Operation},
};
use boa_gc::Gc;
use std::{cell::Cell, ops::ControlFlow};

/// `Await` implements the Opcode Operation for `Opcode::Await`
///
/// Operation:
///  - Stops the current Async function and schedules it to resume later.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Await;

impl Await {
    #[inline(always)]
    pub(super) fn operation(
        value: RegisterOperand,
        context: &mut Context,
    ) -> ControlFlow<CompletionRecord> {
        let value = context.vm.get_register(value.into());

        // 2. Let promise be ? PromiseResolve(%Promise%, value).
        let promise = match Promise::promise_resolve(
            &context.intrinsics().constructors().promise().constructor(),
            value.clone(),
            context,
        ) {
            Ok(promise) => match promise.downcast::<Promise>().ok() {
                Some(v) => v,
                None => {
                    return context.handle_error(
                        PanicError::new("%Promise% constructor must return a `Promise` object")
                            .into(),
                    );
                }
            },
            Err(err) => return context.handle_error(err),
        };

        let return_value = context
            .vm
            .get_promise_capability()
            .ok()
            .map(|cap| JsValue::from(cap.promise))
            .unwrap_or_default();

        let r#gen = GeneratorContext::from_current(context, None);

        let captures = Gc::new(Cell::new(Some(r#gen)));

        // 3. to 6.: the closures `onFulfilled` and `onRejected` that resume
        // asyncContext. Patched (interleave): no script can reach them, so
        // the reactions hold the suspended function itself and resume it
        // as they would (`resume_after_await`).
        // 7. Perform PerformPromiseThen(promise, onFulfilled, onRejected).
        Promise::perform_await_then(&promise, captures, context);

        context.vm.set_return_value(return_value);
        context.handle_yield()
    }
}

/// The steps of `Await`'s `fulfilledClosure` (with `Normal`) and
/// `rejectedClosure` (with `Throw`): resume the suspended async function
/// with `value`, and return undefined.
pub(crate) fn resume_after_await(
    captures: &Gc<Cell<Option<GeneratorContext>>>,
    value: JsValue,
    kind: GeneratorResumeKind,
    context: &mut Context,
) -> JsResult<JsValue> {
    // a. Let prevContext be the running execution context.
    // b. Suspend prevContext.
    // c. Push asyncContext onto the execution context stack; asyncContext is now the running execution context.
    // d. Resume the suspended evaluation of asyncContext using NormalCompletion(value)
    //    (or ThrowCompletion(reason)) as the result of the operation that suspended it.
    let mut r#gen = captures.take().js_expect("should only run once")?;

    // NOTE: We need to get the object before resuming, since it could clear the stack.
    let async_generator = r#gen.async_generator_object()?;

    let completion = r#gen.resume(Some(value), kind, context);
    // Patched (interleave): an uncatchable error (a runtime limit) that
    // ends the resumed async function must reach the job's caller, not
    // vanish with the job.
    if let CompletionRecord::Throw(err) = completion
        && !err.is_catchable()
    {
        return Err(err);
    }

    if let Some(async_generator) = async_generator {
        async_generator
            .downcast_mut::<AsyncGenerator>()
            .js_expect("must be async generator")?
            .context = Some(r#gen);
    }

    // e. Assert: When we reach this step, asyncContext has already been removed from the execution context stack and prevContext is the currently running execution context.
    // f. Return undefined.
    Ok(JsValue::undefined())
}

impl Operation for Await {
    const NAME: &'static str = "Await";
    const INSTRUCTION: &'static str = "INST - Await";
    const COST: u8 = 5;
}

/// `CreatePromiseCapability` implements the Opcode Operation for `Opcode::CreatePromiseCapability`
///
/// Operation:
///  - Create a promise capacity for an async function.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CreatePromiseCapability;

impl CreatePromiseCapability {
    #[inline(always)]
    pub(super) fn operation((): (), context: &mut Context) -> JsResult<()> {
        // Patched (interleave): `NewPromiseCapability(%Promise%)` builds a
        // promise and its two resolving functions. An async function's
        // capability lives in registers no script can read, and the
        // function's epilogue calls its resolve or reject function once,
        // from the function's own frame (a native call pushes no frame).
        // So every async function of a realm shares one pair of natives
        // that settle the promise in the calling frame's register: the
        // same steps, two function objects fewer per call.
        let promise = JsObject::from_proto_and_data_with_shared_shape(
            context.root_shape(),
            context.intrinsics().constructors().promise().prototype(),
            Promise::new(),
        );
        let functions = async_settlers(context);
        context.vm.set_promise_capability(PromiseCapability {
            promise: promise.upcast(),
            functions,
        })
    }
}

/// This realm's shared resolve and reject functions for async functions'
/// capabilities, built on first use.
fn async_settlers(context: &mut Context) -> ResolvingFunctions {
    if let Some((realm, functions)) = &context.async_settlers
        && realm == context.realm()
    {
        return functions.clone();
    }
    let settler = |steps: fn(&JsValue, &[JsValue], &mut Context) -> JsResult<JsValue>,
                   context: &mut Context| {
        FunctionObjectBuilder::new(context.realm(), NativeFunction::from_fn_ptr(steps))
            .name(js_string!())
            .length(1)
            .build()
    };
    let functions = ResolvingFunctions {
        resolve: settler(settle_async_resolve, context),
        reject: settler(settle_async_reject, context),
    };
    context.async_settlers = Some((context.realm().clone(), functions.clone()));
    functions
}

/// The promise of the running async function's capability.
fn running_async_promise(context: &Context) -> JsResult<JsObject<Promise>> {
    context
        .vm
        .get_promise_capability()?
        .promise
        .downcast::<Promise>()
        .ok()
        .js_expect("an async function's promise is a Promise")
        .map_err(Into::into)
}

/// The steps of a promise resolve function, on the running async
/// function's promise (its epilogue calls this once: `alreadyResolved`
/// is false).
fn settle_async_resolve(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let promise = running_async_promise(context)?;
    crate::builtins::promise::resolve_steps(&promise, args.get_or_undefined(0), context)?;
    Ok(JsValue::undefined())
}

/// The steps of a promise reject function, on the running async
/// function's promise.
fn settle_async_reject(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let promise = running_async_promise(context)?;
    crate::builtins::promise::reject_promise(&promise, args.get_or_undefined(0).clone(), context);
    Ok(JsValue::undefined())
}

impl Operation for CreatePromiseCapability {
    const NAME: &'static str = "CreatePromiseCapability";
    const INSTRUCTION: &'static str = "INST - CreatePromiseCapability";
    const COST: u8 = 8;
}
