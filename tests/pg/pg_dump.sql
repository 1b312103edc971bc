--
-- PostgreSQL database dump
--

\restrict ZzfwXj9J8mI14UNGWdw40g0OABOdbGZr285gfwbLkpcGXpBuykq18MxvATT2SPd

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: public; Type: SCHEMA; Schema: -; Owner: interleave
--

-- *not* creating schema, since initdb creates it


ALTER SCHEMA public OWNER TO interleave;

--
-- Name: SCHEMA public; Type: COMMENT; Schema: -; Owner: interleave
--

COMMENT ON SCHEMA public IS '';


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: orders; Type: TABLE; Schema: public; Owner: interleave
--

CREATE TABLE public.orders (
    id bigint NOT NULL,
    user_id integer NOT NULL,
    total numeric(10,2) NOT NULL,
    status text DEFAULT 'new'::text NOT NULL,
    CONSTRAINT orders_total_check CHECK ((total >= (0)::numeric))
);


ALTER TABLE public.orders OWNER TO interleave;

--
-- Name: TABLE orders; Type: COMMENT; Schema: public; Owner: interleave
--

COMMENT ON TABLE public.orders IS 'what users bought';


--
-- Name: orders_id_seq; Type: SEQUENCE; Schema: public; Owner: interleave
--

ALTER TABLE public.orders ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.orders_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: interleave
--

CREATE TABLE public.users (
    id integer NOT NULL,
    email text NOT NULL,
    name text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.users OWNER TO interleave;

--
-- Name: users_id_seq; Type: SEQUENCE; Schema: public; Owner: interleave
--

CREATE SEQUENCE public.users_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.users_id_seq OWNER TO interleave;

--
-- Name: users_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: interleave
--

ALTER SEQUENCE public.users_id_seq OWNED BY public.users.id;


--
-- Name: users id; Type: DEFAULT; Schema: public; Owner: interleave
--

ALTER TABLE ONLY public.users ALTER COLUMN id SET DEFAULT nextval('public.users_id_seq'::regclass);


--
-- Name: orders orders_pkey; Type: CONSTRAINT; Schema: public; Owner: interleave
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (id);


--
-- Name: users users_email_key; Type: CONSTRAINT; Schema: public; Owner: interleave
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_email_key UNIQUE (email);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: interleave
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: orders_by_user; Type: INDEX; Schema: public; Owner: interleave
--

CREATE INDEX orders_by_user ON public.orders USING btree (user_id);


--
-- Name: orders_one_open; Type: INDEX; Schema: public; Owner: interleave
--

CREATE UNIQUE INDEX orders_one_open ON public.orders USING btree (user_id, status);


--
-- Name: orders orders_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: interleave
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: interleave
--

REVOKE USAGE ON SCHEMA public FROM PUBLIC;


--
-- PostgreSQL database dump complete
--

\unrestrict ZzfwXj9J8mI14UNGWdw40g0OABOdbGZr285gfwbLkpcGXpBuykq18MxvATT2SPd

